package openresponses

import (
	"strings"
	"time"
)

// Response is a model's answer: its output items, its status and the
// settings of the request it answers.
type Response struct {
	ID                 string             `json:"id"`
	Object             string             `json:"object"`
	CreatedAt          int64              `json:"created_at"`
	CompletedAt        *int64             `json:"completed_at,omitempty"`
	Status             ResponseStatus     `json:"status"`
	IncompleteDetails  *IncompleteDetails `json:"incomplete_details,omitempty"`
	Model              string             `json:"model"`
	PreviousResponseID string             `json:"previous_response_id,omitempty"`
	Instructions       string             `json:"instructions,omitempty"`
	Output             Items              `json:"output"`
	Error              *ErrorPayload      `json:"error,omitempty"`
	Tools              Tools              `json:"tools,omitempty"`
	ToolChoice         ToolChoice         `json:"tool_choice,omitzero"`
	Text               TextConfig         `json:"text,omitzero"`
	Reasoning          ReasoningConfig    `json:"reasoning,omitzero"`
	Temperature        *float64           `json:"temperature,omitempty"`
	TopP               *float64           `json:"top_p,omitempty"`
	ParallelToolCalls  *bool              `json:"parallel_tool_calls,omitempty"`
	MaxOutputTokens    *int               `json:"max_output_tokens,omitempty"`
	Truncation         Truncation         `json:"truncation,omitempty"`
	Store              *bool              `json:"store,omitempty"`
	ServiceTier        ServiceTier        `json:"service_tier,omitempty"`
	Metadata           map[string]string  `json:"metadata,omitempty"`
	Usage              *Usage             `json:"usage,omitempty"`
}

// NewResponse starts an in-progress response to req with a fresh ID,
// echoing the request's settings and holding no output yet.
func NewResponse(req Request) *Response {
	return &Response{
		ID:                 NewID("resp"),
		Object:             "response",
		CreatedAt:          time.Now().Unix(),
		Status:             ResponseStatusInProgress,
		Model:              req.Model,
		PreviousResponseID: req.PreviousResponseID,
		Instructions:       req.Instructions,
		Output:             Items{},
		Tools:              req.Tools,
		ToolChoice:         req.ToolChoice,
		Text:               req.Text,
		Reasoning:          req.Reasoning,
		Temperature:        req.Temperature,
		TopP:               req.TopP,
		ParallelToolCalls:  req.ParallelToolCalls,
		MaxOutputTokens:    req.MaxOutputTokens,
		Truncation:         req.Truncation,
		Store:              req.Store,
		ServiceTier:        req.ServiceTier,
		Metadata:           req.Metadata,
	}
}

// OutputText concatenates the text of every [OutputText] part of the
// response's assistant messages.
func (r *Response) OutputText() string {
	var b strings.Builder
	for _, item := range r.Output {
		m, ok := item.(*Message)
		if !ok || m == nil || m.Role != RoleAssistant {
			continue
		}
		for _, part := range m.Content {
			if t, ok := part.(*OutputText); ok && t != nil {
				b.WriteString(t.Text)
			}
		}
	}
	return b.String()
}

// FunctionCalls lists the response's function calls in output order.
func (r *Response) FunctionCalls() []*FunctionCall {
	var calls []*FunctionCall
	for _, item := range r.Output {
		if c, ok := item.(*FunctionCall); ok && c != nil {
			calls = append(calls, c)
		}
	}
	return calls
}

// clone copies the response with a deep copy of its output, so a stream
// event can carry a snapshot that later writes do not change.
func (r *Response) clone() *Response {
	c := *r
	c.Output = r.Output.Clone()
	return &c
}

// Usage counts the tokens a response consumed.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	TotalTokens  int `json:"total_tokens"`
}

// IncompleteDetails says why a response is incomplete.
type IncompleteDetails struct {
	Reason string `json:"reason"`
}

// ErrorPayload is the error a failed response or an [ErrorEvent] carries; it
// is an error itself.
type ErrorPayload struct {
	Type    string `json:"type,omitempty"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message"`
	Param   string `json:"param,omitempty"`
}

// Error reads "openresponses: <code>: <message>", or without the code when
// there is none.
func (e *ErrorPayload) Error() string {
	if e.Code != "" {
		return "openresponses: " + e.Code + ": " + e.Message
	}
	return "openresponses: " + e.Message
}
