package codex

import "errors"

// errNoURL is the split of a WebFetch call without a URL.
var errNoURL = errors.New("agentpolicy/codex: the call names no url")
