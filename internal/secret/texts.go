package secret

// Detected is the reason for a secret found where it may not go: "secret
// detected: NAME", which names the kind and never the secret. Package
// guard's secrets guard and the agentpolicy hook both give it.
func Detected(name string) string {
	return "secret detected: " + name
}

// redaction is what replaces a secret of the named kind.
func redaction(name string) string {
	return "[REDACTED " + name + "]"
}
