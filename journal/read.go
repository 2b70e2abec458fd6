package journal

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/ChristopherDavenport/agentpolicy"
)

// Errors [Read] reports, each wrapped with the number of the line, counted
// from 1, and matched with errors.Is.
var (
	// ErrTorn is a last line with no newline at its end: a record a crash
	// or a failed write cut short. Every record [File] writes ends with a
	// newline in the same write, so a line without one is never whole.
	ErrTorn = errors.New("agentpolicy/journal: torn last line")
	// ErrCorrupt is a line that is not one JSON object: a torn line that
	// [Open] ended with a newline before appending, or a line something
	// other than a journal wrote.
	ErrCorrupt = errors.New("agentpolicy/journal: line is not a record")
)

// Read returns the records of the journal r holds, one JSON object per
// line, in the order they were written. A line that is not a whole record
// stops the reading: Read returns the records before it with an error that
// names the line, [ErrTorn] for a last line cut short and [ErrCorrupt] for
// any other, so a reader never mistakes a journal with a hole in it for a
// whole one. An empty journal has no records and no error.
func Read(r io.Reader) ([]json.RawMessage, error) {
	br := bufio.NewReader(r)
	var records []json.RawMessage
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if err == io.EOF {
			if len(line) == 0 {
				return records, nil
			}
			return records, fmt.Errorf("%w: line %d ends without a newline after %d bytes", ErrTorn, n, len(line))
		}
		if err != nil {
			return records, fmt.Errorf("agentpolicy/journal: line %d: %w", n, err)
		}
		line = line[:len(line)-1]
		if !isObject(line) {
			return records, fmt.Errorf("%w: line %d: %.40q", ErrCorrupt, n, line)
		}
		records = append(records, json.RawMessage(line))
	}
}

// isObject reports whether line is one JSON object, as a record is.
func isObject(line []byte) bool {
	return len(line) > 0 && line[0] == '{' && json.Valid(line)
}

// ReadFile is [Read] over the journal at path.
func ReadFile(path string) ([]json.RawMessage, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("agentpolicy/journal: cannot read the journal: %w", err)
	}
	defer f.Close()
	return Read(f)
}

// ReadVerdicts is [Read], with each record read back into the verdict it
// records with [agentpolicy.ParseRecord], for [agentpolicy.Engine.Restore]
// and for the queue an [agentpolicy.Unattended] reviewer keeps. A record
// that is not a verdict's stops the reading as a line that is not a
// record does: the verdicts before it are returned with an error naming
// the line, wrapping [agentpolicy.ErrRecord]. A product restores nothing
// from a journal it could not read to the end, since the line it could
// not read may be the answer to a call it would otherwise answer again.
func ReadVerdicts(r io.Reader) ([]agentpolicy.Verdict, error) {
	records, err := Read(r)
	verdicts := make([]agentpolicy.Verdict, 0, len(records))
	for i, rec := range records {
		v, perr := agentpolicy.ParseRecord(rec)
		if perr != nil {
			return verdicts, fmt.Errorf("agentpolicy/journal: line %d: %w", i+1, perr)
		}
		verdicts = append(verdicts, v)
	}
	return verdicts, err
}

// Verdicts is [ReadVerdicts] over the journal, or the queue, at path.
func Verdicts(path string) ([]agentpolicy.Verdict, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("agentpolicy/journal: cannot read the journal: %w", err)
	}
	defer f.Close()
	return ReadVerdicts(f)
}
