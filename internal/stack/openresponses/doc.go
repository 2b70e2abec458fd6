// Package openresponses is a clean-room stand-in for the Open Responses wire
// types of github.com/ChristopherDavenport/openresponses: the items of a
// transcript, requests and responses, the streaming events a model sends, the
// [Streamer] interface a model implements, and the helpers that fold a stream
// into a [Response] ([Accumulator], [CollectStream]) or write one
// ([Emitter]).
//
// Items and content parts are pointers held behind the [Item] and [Content]
// interfaces, so code that rewrites a transcript does so on an
// [Items.Clone] copy and leaves the original untouched.
package openresponses
