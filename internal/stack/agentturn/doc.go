// Package agentturn is the agent loop: a [Config] with the model, the tools
// and the hooks that watch and steer a run, and an [Agent] that runs turns
// until the model answers, a hook stops it, or a tool call needs the caller.
//
// A run starts with [Agent.Prompt]. Each turn builds a request from the
// working transcript, streams the model's response, runs the function calls
// it made as one batch and then checks whether to stop. Calls a
// [Config.BeforeToolCall] hook defers end the run with
// [ReasonInputRequired]; the caller answers them with [Agent.Resume] and a
// list of [Answer] values.
//
// This copy is a clean-room stand-in for the published module of the same
// path, carried because the module cannot be fetched where this project is
// built. It is synchronous and single-goroutine: it has no event
// subscribers, retries, steering or session recording.
package agentturn
