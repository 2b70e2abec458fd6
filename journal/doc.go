// Package journal keeps the verdicts of an [agentpolicy.Engine] in a file
// of JSON lines, the audit trail a product that runs agents keeps beside
// their sessions. A [File] is the engine's [agentpolicy.Journal], given with
// [agentpolicy.WithJournal]: every verdict is appended before it takes
// effect, and an allow the file could not take is refused.
//
//	j, err := journal.Open("/var/lib/product/verdicts.jsonl", journal.WithSync())
//	if err != nil {
//		return err
//	}
//	defer j.Close()
//	engine, err := agentpolicy.Build(policy, matchers, agentpolicy.WithJournal(j))
//
// Each line is the object [agentpolicy.Verdict.Record] writes, so the file
// reads with [Read] or any tool that reads JSON lines. [Read] reports a
// line a crash cut short, rather than dropping it, so a journal with a
// hole in it is never taken for a whole one.
//
// The package imports the standard library and agentpolicy alone.
package journal
