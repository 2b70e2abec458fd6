package guard

import "regexp"

// GenericEntropy is the entropy, in bits per byte, that a value must reach
// for a kind of [GenericSecrets] to call it a secret. A random token of
// letters and digits of 20 bytes or more scores above it; an English word, an
// identifier such as "refreshTokenSource" and a placeholder such as
// "xxxxxxxxxxxxxxxxxxxxxxxx" score below.
const GenericEntropy = 4.0

// GenericSecrets is an opt-in list of kinds that look for a value assigned
// to a name that says it is secret, in any of the forms a configuration
// file or a program writes it (api_key = "…", "client_secret": "…",
// TOKEN: …, password := "…"), whose value is 20 or more letters, digits or
// "_+/=.~-" and reaches [GenericEntropy]:
//
//   - generic_secret: a name holding key, secret, token, password, passwd,
//     pwd, credential or auth (in lower case, capitalised or upper case), an
//     assignment, and the value.
//
// None of it is in [DefaultSecrets]: such a kind names no provider and
// guesses from the surrounding words, so it finds what the provider kinds
// miss and also what only looks like a key. A product that wants the net
// wider passes append(guard.DefaultSecrets, guard.GenericSecrets...) to
// [Secrets] or [Redact]. Its false-positive rate, measured by bench/ over
// 200 MiB of the non-test Go sources of a module cache (code, where names
// such as "token" abound), is 190 findings, about one per MiB, where the
// default kinds raise none; and it reads code far slower, its keywords
// being everywhere in it. The whole assignment is redacted, name and value.
var GenericSecrets = []Pattern{
	{
		Name: "generic_secret",
		Regexp: regexp.MustCompile(`(?:key|Key|KEY|secret|Secret|SECRET|token|Token|TOKEN|passwd|password|Password|PASSWORD|pwd|PWD|credential|Credential|CREDENTIAL|auth|Auth|AUTH)` +
			`[A-Za-z0-9_.-]{0,20}["'\x60]?[ \t]*(?::=|=>|=|:)[ \t]*["'\x60]?([A-Za-z0-9_+/=.~-]{20,})`),
		MinEntropy: GenericEntropy,
	},
}
