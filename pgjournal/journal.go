package pgjournal

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
)

// Record appends the verdict to the journal table, an
// [agentpolicy.Journal] given with [agentpolicy.WithJournal], and returns
// once the row is committed: an error means the verdict may not be in the
// journal, and the engine refuses the allow it records. The arguments are
// cut to [Options.ArgsBound]; the caller redacts secrets first, as it does
// for a file journal.
//
// A record is written once per session, call ID and content: a retried
// hook that decides the same call the same way finds its row and writes
// none, and a later verdict on the call that says something else, the
// release of a deferral, is a row of its own. Verdicts with no call ID, a
// grant's, are always appended.
func (d *DB) Record(ctx context.Context, v agentpolicy.Verdict) error {
	v = v.CutArgs(d.opts.ArgsBound)
	_, data := v.Record()
	sum := sha256.Sum256(data)
	rule, source := ruleOf(v)
	ctx, cancel := d.bounded(ctx)
	defer cancel()
	_, err := d.c.Exec(ctx, `INSERT INTO agentpolicy.verdicts
	(machine, session, agent, call_id, tool, action, rule, source, reason, args, args_bytes, args_sha256, record, digest)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
	ON CONFLICT (session, call_id, digest) WHERE call_id <> '' DO NOTHING`,
		d.opts.Machine, v.RunID, d.opts.Agent, v.CallID, v.Tool, actionWord(v), rule, source, v.Reason,
		v.Args, nullInt(v.ArgsBytes), nullText(v.ArgsSHA256), string(data), hex.EncodeToString(sum[:]))
	return d.wrap(err)
}

// ruleOf is the verdict's rule and its source's name, "" for none.
func ruleOf(v agentpolicy.Verdict) (rule, source string) {
	if v.Rule == nil {
		return "", ""
	}
	return v.Rule.String(), v.Rule.Source.Name
}

// actionWord is the action as the record writes it; the table takes
// no other.
func actionWord(v agentpolicy.Verdict) string {
	switch v.Action {
	case agentturn.Allow:
		return "allow"
	case agentturn.Defer:
		return "defer"
	}
	return "block"
}

func nullInt(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

func nullText(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
