package openresponses

import "encoding/json"

// Request is what a caller sends a model: the input transcript, the tools on
// offer and the settings of the answer.
type Request struct {
	Model              string            `json:"model,omitempty"`
	Input              Items             `json:"input"`
	PreviousResponseID string            `json:"previous_response_id,omitempty"`
	Include            []Include         `json:"include,omitempty"`
	Tools              Tools             `json:"tools,omitempty"`
	ToolChoice         ToolChoice        `json:"tool_choice,omitzero"`
	Metadata           map[string]string `json:"metadata,omitempty"`
	Text               TextConfig        `json:"text,omitzero"`
	Temperature        *float64          `json:"temperature,omitempty"`
	TopP               *float64          `json:"top_p,omitempty"`
	PresencePenalty    *float64          `json:"presence_penalty,omitempty"`
	FrequencyPenalty   *float64          `json:"frequency_penalty,omitempty"`
	ParallelToolCalls  *bool             `json:"parallel_tool_calls,omitempty"`
	Stream             bool              `json:"stream,omitempty"`
	StreamOptions      *StreamOptions    `json:"stream_options,omitempty"`
	Background         bool              `json:"background,omitempty"`
	MaxOutputTokens    *int              `json:"max_output_tokens,omitempty"`
	MaxToolCalls       *int              `json:"max_tool_calls,omitempty"`
	Reasoning          ReasoningConfig   `json:"reasoning,omitzero"`
	SafetyIdentifier   string            `json:"safety_identifier,omitempty"`
	PromptCacheKey     string            `json:"prompt_cache_key,omitempty"`
	Truncation         Truncation        `json:"truncation,omitempty"`
	Instructions       string            `json:"instructions,omitempty"`
	Store              *bool             `json:"store,omitempty"`
	ServiceTier        ServiceTier       `json:"service_tier,omitempty"`
	TopLogprobs        *int              `json:"top_logprobs,omitempty"`

	// Extra holds provider-specific members an adapter adds to the body; it is
	// never encoded by this package.
	Extra map[string]any `json:"-"`
}

// Include names an extra piece of output a [Request] asks for.
type Include string

// Extra outputs a [Request] can ask for.
const (
	IncludeReasoningEncryptedContent Include = "reasoning.encrypted_content"
	IncludeMessageOutputTextLogprobs Include = "message.output_text.logprobs"
)

// StreamOptions tunes a streamed answer.
type StreamOptions struct {
	IncludeObfuscation *bool `json:"include_obfuscation,omitempty"`
}

// ReasoningConfig asks a reasoning model for an effort level and a kind of
// summary.
type ReasoningConfig struct {
	Effort  string `json:"effort,omitempty"`
	Summary string `json:"summary,omitempty"`
}

// Truncation says what a model does with an input too long for its window.
type Truncation string

// The truncation strategies.
const (
	TruncationAuto     Truncation = "auto"
	TruncationDisabled Truncation = "disabled"
)

// ServiceTier picks the processing tier of a request.
type ServiceTier string

// The service tiers.
const (
	ServiceTierAuto     ServiceTier = "auto"
	ServiceTierDefault  ServiceTier = "default"
	ServiceTierFlex     ServiceTier = "flex"
	ServiceTierPriority ServiceTier = "priority"
)

// TextConfig shapes a model's text output: its format and verbosity.
type TextConfig struct {
	Format    *TextFormat `json:"format,omitempty"`
	Verbosity string      `json:"verbosity,omitempty"`
}

// TextFormatType names the format of a model's text output.
type TextFormatType string

// The text formats; [TextFormatJSONSchema] asks for JSON valid against a
// schema (see [JSONSchemaFormat]).
const (
	TextFormatText       TextFormatType = "text"
	TextFormatJSONObject TextFormatType = "json_object"
	TextFormatJSONSchema TextFormatType = "json_schema"
)

// TextFormat is the format a [TextConfig] asks for.
type TextFormat struct {
	Type        TextFormatType  `json:"type"`
	Name        string          `json:"name,omitempty"`
	Description string          `json:"description,omitempty"`
	Schema      json.RawMessage `json:"schema,omitempty"`
	Strict      *bool           `json:"strict,omitempty"`
}

// JSONSchemaFormat asks for output that is JSON valid against schema, under
// the given name.
func JSONSchemaFormat(name string, schema json.RawMessage, strict bool) *TextFormat {
	return &TextFormat{Type: TextFormatJSONSchema, Name: name, Schema: schema, Strict: &strict}
}
