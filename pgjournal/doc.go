// Package pgjournal keeps the journal, the review queue and the grants of
// a fleet of agents in one PostgreSQL database, behind the interfaces the
// file versions use: [DB.Record] is an [agentpolicy.Journal], [DB.Queue]
// the journal an [agentpolicy.Unattended] reviewer queues into, and
// [DB.Grants] the rules people granted, which an engine activates with
// [agentpolicy.Engine.GrantSet] under [GrantSource].
//
// Every write returns once its transaction committed, within a bound
// ([Options.Timeout], 2 s by default): an error means the record may not
// be there, and a caller that must leave a trail refuses the call. An
// error of reaching the database wraps [ErrUnreachable]; one the database
// answered (a wrong password, a schema this package cannot write) does
// not, since waiting will not change it.
//
// # Layout
//
// Everything lives in the schema agentpolicy, at the version
// [SchemaVersion] that agentpolicy.schema_version records, one row per
// migration applied; [Migrate] (agentpolicy db migrate) creates and
// migrates it under an advisory lock, and [Open] refuses a schema of
// another version unless [Options.Migrate] asks it to migrate.
//
//   - verdicts: one row per verdict: recorded_at, machine, session (the
//     run ID), agent, call_id, tool, action (allow, block, defer), rule
//     and source ("" for none), reason, args (the call's arguments,
//     secrets redacted by the caller, cut to [Options.ArgsBound]),
//     args_bytes and args_sha256 (the whole's length and SHA-256 when
//     cut, else null), record (the JSON [agentpolicy.Verdict.Record]
//     writes) and digest (its SHA-256). A row is written once per
//     session, call_id and digest, so a retried hook writes one record.
//   - queue: one row per call an unattended run queued, by session and
//     call_id: the columns of a verdict, and the project, username and
//     team of the host that queued it, the rule "always allow" would
//     write (suggested), and state (waiting, approved, denied), answer,
//     answered_by and answered_at.
//   - grants: one row per grant: scope (project, user or team) and name,
//     rule, once (a grant for one call, which used_session, used_call
//     and used_at record the use of), granted_by, and the queue row it
//     answered.
//
// An approval commits the answer, the grant and a notice on the channel
// agentpolicy_grants together; [Watch] hears the notice.
package pgjournal
