// Package echo is a deterministic offline model for tests: it calls the tool
// on offer with the last user message as arguments, or answers by echoing the
// last thing said to it.
package echo
