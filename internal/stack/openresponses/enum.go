package openresponses

// Role says who speaks in a [Message].
type Role string

// The roles a [Message] can carry.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleSystem    Role = "system"
	RoleDeveloper Role = "developer"
)

// Status is the lifecycle state of an item; a streamed item is in progress
// until its done event and completed (or incomplete) afterwards.
type Status string

// The statuses an item can carry.
const (
	StatusInProgress Status = "in_progress"
	StatusCompleted  Status = "completed"
	StatusIncomplete Status = "incomplete"
)

// Phase tells an assistant [Message] that comments on work in progress apart
// from the final answer of a run.
type Phase string

// The phases an assistant [Message] can carry.
const (
	PhaseCommentary  Phase = "commentary"
	PhaseFinalAnswer Phase = "final_answer"
)

// ResponseStatus is the lifecycle state of a [Response].
type ResponseStatus string

// The statuses a [Response] can carry.
const (
	ResponseStatusInProgress ResponseStatus = "in_progress"
	ResponseStatusCompleted  ResponseStatus = "completed"
	ResponseStatusFailed     ResponseStatus = "failed"
	ResponseStatusIncomplete ResponseStatus = "incomplete"
)
