// Package agenttool is a clean-room stand-in for the tool contract of
// github.com/ChristopherDavenport/agenttool: the [Tool] interface a loop runs,
// typed tools built from Go functions ([New], [NewFunc]), the claims a tool
// makes about a call (confinement: [Confined]; whether running it twice is
// safe: [Replayable]), and [Set], a list of tools looked up by name.
package agenttool
