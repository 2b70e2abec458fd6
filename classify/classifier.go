package classify

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ChristopherDavenport/openresponses"
)

// classifier is what a [Guard] and a [Reviewer] share: the model, the
// request it is asked with and the time it has to answer.
type classifier struct {
	model        openresponses.Streamer
	modelName    string
	instructions string
	base         openresponses.Request
	timeout      time.Duration
}

func newClassifier(model openresponses.Streamer, modelName, rubric string, o options) classifier {
	return classifier{
		model:        model,
		modelName:    modelName,
		instructions: strings.TrimSpace(rubric) + "\n\n" + answerInstruction,
		base:         o.base,
		timeout:      o.timeout,
	}
}

// ask puts text to the model under the rubric and reads its answer. It
// fails closed: a context already done, a model error, a model that does
// not answer before ctx ends and an answer that cannot be read are errors.
func (c classifier) ask(ctx context.Context, text string) (answer, error) {
	if c.model == nil {
		return answer{}, errNoModel
	}
	if err := ctx.Err(); err != nil {
		return answer{}, modelError(err)
	}
	resp, err := collect(ctx, c.model, c.request(text))
	if err != nil {
		return answer{}, modelError(err)
	}
	return readAnswer(resp.OutputText())
}

// request is the question about text: the base request with the model,
// the rubric and the answer instruction, text as the one user input, the
// verdict format, nothing stored and no previous response, so a question
// never reads another's context or leaves its own behind.
func (c classifier) request(text string) openresponses.Request {
	req := c.base
	req.Model = c.modelName
	req.Instructions = c.instructions
	req.Input = openresponses.Items{openresponses.UserText(text)}
	req.Text.Format = openresponses.JSONSchemaFormat("verdict", verdictSchema(), true)
	store := false
	req.Store = &store
	req.PreviousResponseID = ""
	return req
}

// withTimeout is ctx bounded by the classifier's timeout, when it has one.
func (c classifier) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.timeout <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, c.timeout)
}

// collect runs the model on req and returns its response, or ctx's error
// as soon as ctx ends: a model that ignores its context is left to finish
// on its own rather than waited for, so a timeout holds whatever the
// adapter does. A model that panics is an error, since the panic would
// otherwise end the process from a goroutine nobody can recover in.
func collect(ctx context.Context, model openresponses.Streamer, req openresponses.Request) (*openresponses.Response, error) {
	type result struct {
		resp *openresponses.Response
		err  error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{err: fmt.Errorf("panic: %v", p)}
			}
		}()
		resp, err := openresponses.CollectStream(ctx, model, req)
		done <- result{resp, err}
	}()
	select {
	case r := <-done:
		return r.resp, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
