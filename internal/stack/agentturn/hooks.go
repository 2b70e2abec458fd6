package agentturn

import (
	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/openresponses"
)

// TurnStartInfo is what a [Config.BeforeTurn] hook sees when a turn starts,
// before the request is built.
type TurnStartInfo struct {
	// RunID identifies the run.
	RunID string
	// Turn numbers the turn from 1.
	Turn int
	// Transcript is the live working transcript; read it, do not change it.
	Transcript Transcript
}

// TurnInfo is what a [Config.ShouldStopAfterTurn] hook sees once a turn's
// tool batch is done.
type TurnInfo struct {
	// RunID identifies the run.
	RunID string
	// Turn numbers the turn from 1.
	Turn int
	// Response is the turn's response, its Output holding the items the
	// turn appended from it.
	Response *openresponses.Response
	// ToolResults are this turn's tool results, in model order; deferred
	// calls have none.
	ToolResults []agenttool.Result
	// Final reports that the model called no tools this turn.
	Final bool
	// Transcript is the live working transcript; read it, do not change it.
	Transcript Transcript
}

// OutputInfo is what a [Config.OutputGuard] hook sees of one assistant
// message, as the stream completes it and before it is appended.
type OutputInfo struct {
	// RunID identifies the run.
	RunID string
	// Turn numbers the turn from 1.
	Turn int
	// ResponseID is the ID of the response the message belongs to.
	ResponseID string
	// Message is the assistant message as the stream completed it.
	Message *openresponses.Message
	// Output holds the items of the response that completed before it.
	Output openresponses.Items
}
