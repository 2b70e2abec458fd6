// Package bench measures agentpolicy beside the libraries a Go team would
// otherwise pick for the same work, over the same input, so the figures in
// the README are of equal work and can be reproduced with `make bench`:
//
//   - the engine's [agentpolicy.Engine.Decide] beside cedar-go's
//     authorizer (cedar.Authorize over a PolicySet, which the deprecated
//     PolicySet.IsAuthorized calls), over one policy written in both
//     languages ([Policy], [Cedar]);
//   - guard.Redact beside gitleaks' detector, over the same prose with the
//     same planted secrets ([Prose], [PlantSecrets], [Gitleaks]);
//   - guard.Secrets over the samples gitleaks' own rules are tested with,
//     read from its rule sources in the module cache, for the rules of a
//     provider token with a fixed prefix ([PrefixedRules], [Recall]): the
//     share it finds, which a test holds at 95% or more;
//   - guard.Redact and gitleaks over a clean corpus, the non-test Go sources
//     of the module cache ([Corpus]): the false positives of each.
//
// The tests check that both sides give the same answers before anything is
// timed. The package is a module of its own, so the root module never
// depends on a peer.
package bench
