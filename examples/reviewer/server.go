package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/ChristopherDavenport/openresponses"
)

// server is a minimal openresponses.Streamer over an Open Responses server's
// HTTP API: it POSTs the request to <url>/responses without streaming and
// hands the whole response to the sink as one completed event, which is all
// openresponses.CollectStream, and so the reviewer, needs. A product uses
// its model adapter instead.
type server struct {
	url    string // the API's base URL, http://localhost:8080/v1
	apiKey string // sent as a bearer token when set
	client *http.Client
}

func (s server) CreateStream(ctx context.Context, req openresponses.Request, sink openresponses.EventSink) error {
	req.Stream = false
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(s.url, "/")+"/responses", bytes.NewReader(body))
	if err != nil {
		return err
	}
	httpReq.Header.Set("Content-Type", "application/json")
	if s.apiKey != "" {
		httpReq.Header.Set("Authorization", "Bearer "+s.apiKey)
	}
	httpResp, err := s.client.Do(httpReq)
	if err != nil {
		return err
	}
	defer httpResp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(httpResp.Body, 4<<20))
	if err != nil {
		return err
	}
	if httpResp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", httpResp.Status, bytes.TrimSpace(data))
	}
	// Only what the reviewer reads is decoded, so a server's settings echo
	// in a shape this module does not know cannot fail the review.
	var resp struct {
		ID     string                       `json:"id"`
		Status openresponses.ResponseStatus `json:"status"`
		Output openresponses.Items          `json:"output"`
		Error  *openresponses.ErrorPayload  `json:"error"`
	}
	if err := json.Unmarshal(data, &resp); err != nil {
		return fmt.Errorf("the server's response: %w", err)
	}
	if resp.Error != nil {
		return resp.Error
	}
	return sink.Send(&openresponses.ResponseCompletedEvent{Response: &openresponses.Response{
		ID: resp.ID, Object: "response", Status: resp.Status, Model: req.Model, Output: resp.Output,
	}})
}
