package guard

import (
	"slices"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
)

func TestGenericSecretsAreOptIn(t *testing.T) {
	for _, p := range GenericSecrets {
		if slices.ContainsFunc(DefaultSecrets, func(d Pattern) bool { return d.Name == p.Name }) {
			t.Errorf("%s is in DefaultSecrets", p.Name)
		}
		if p.MinEntropy != GenericEntropy {
			t.Errorf("%s has MinEntropy %v, want %v", p.Name, p.MinEntropy, GenericEntropy)
		}
	}
	value := fill(alnum, 32)
	if v := check(t, Secrets(), `api_key = "`+value+`"`); v.Action != agentturn.Allow {
		t.Errorf("the default kinds found a generic secret: %+v", v)
	}
}

func TestGenericSecrets(t *testing.T) {
	g := Secrets(GenericSecrets...)
	value := fill(alnum, 32)
	for _, text := range []string{
		`api_key = "` + value + `"`,
		`"client_secret": "` + value + `"`,
		`GITHUB_TOKEN: ` + value,
		`password := "` + value + `"`,
		`$authToken => '` + value + `'`,
	} {
		if v := check(t, g, text); v.Reason != "secret detected: generic_secret" {
			t.Errorf("%q: verdict %+v, want generic_secret", text, v)
		}
	}
	for _, text := range []string{
		`token := oauth2.StaticTokenSource(&oauth2.Token{AccessToken: tok})`,
		`password: "` + strings.Repeat("x", 32) + `"`,
		`key = "` + strings.Repeat("ab", 16) + `"`,
		`secret = "` + value[:19] + `"`,
		`tokenSourceForTheDefaultCredentials = refreshingTokenSource`,
		`the value of ` + value + ` is not assigned to a key`,
	} {
		if v := check(t, g, text); v.Action != agentturn.Allow {
			t.Errorf("%q: verdict %+v, want a pass", text, v)
		}
	}
}
