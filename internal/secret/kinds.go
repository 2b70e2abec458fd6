package secret

import (
	"regexp"
	"sync"
)

// kind is a default kind of secret: its name, its expression, and the
// example shape the documentation lists for it.
type kind struct {
	name, expr, shape string
}

// kinds are the default kinds of secret, in the order guard.DefaultSecrets
// lists them. Each expression is written from its provider's documented token
// format and begins with a literal (a fixed prefix such as "sk_live_"), so
// the matcher looks for that literal and runs the expression only where it
// is found. Where two kinds can match at the same byte the narrower comes
// first: the Anthropic keys before openai_key, grafana_api_key before jwt.
//
// Where a kind's match holds more than the secret (a URL, a user name), a
// group marks the secret, whose entropy the placeholder test reads.
//
// The shapes show a token's layout, not a token: N[a-z0-9] is N characters
// of that class, and "…" stands for the rest.
var kinds = []kind{
	// Cloud providers.
	{"aws_access_key", `(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}`, "AKIA + 16[A-Z0-9]"},
	{"aws_bedrock_api_key", `ABSK[A-Za-z0-9+/]{100,}={0,2}|bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=%&?._-]*`, "ABSK + 100+ base64, or bedrock-api-key-YmVk… (a short-term key)"},
	{"google_api_key", `AIza[A-Za-z0-9_-]{35}`, "AIza + 35[A-Za-z0-9_-]"},
	{"google_oauth_client_secret", `GOCSPX-[A-Za-z0-9_-]{28}`, "GOCSPX- + 28[A-Za-z0-9_-]"},
	{"google_oauth_access_token", `ya29\.[A-Za-z0-9_-]{30,}`, "ya29. + 30+[A-Za-z0-9_-]"},
	{"gcp_service_account", `"type":\s*"service_account"`, `"type": "service_account" (a key file)`},
	{"azure_storage_account_key", `AccountKey=[A-Za-z0-9+/]{86}==`, "AccountKey= + 86 base64 + =="},
	{"alibaba_access_key_id", `LTAI[A-Za-z0-9]{12,20}`, "LTAI + 12 to 20[A-Za-z0-9]"},
	{"digitalocean_pat", `dop_v1_[a-f0-9]{64}`, "dop_v1_ + 64[a-f0-9]"},
	{"digitalocean_oauth_token", `doo_v1_[a-f0-9]{64}`, "doo_v1_ + 64[a-f0-9]"},
	{"digitalocean_refresh_token", `dor_v1_[a-f0-9]{64}`, "dor_v1_ + 64[a-f0-9]"},
	{"cloudflare_origin_ca_key", `v1\.0-[a-f0-9]{24}-[a-f0-9]{146}`, "v1.0- + 24[a-f0-9] + - + 146[a-f0-9]"},
	{"heroku_api_key", `HRKU-AA[A-Za-z0-9_-]{58}`, "HRKU-AA + 58[A-Za-z0-9_-]"},
	{"flyio_token", `fo1_[A-Za-z0-9_-]{43}|fm(?:1[ar]|2)_[A-Za-z0-9+/]{100,}={0,3}`, "fo1_ + 43[A-Za-z0-9_-], or fm2_ + 100+ base64"},
	{"openshift_token", `sha256~[A-Za-z0-9_-]{43}`, "sha256~ + 43[A-Za-z0-9_-]"},

	// Source hosts and package registries.
	{"github_token", `gh[pousr]_[A-Za-z0-9]{36,}`, "ghp_ (or gho_ ghu_ ghs_ ghr_) + 36[A-Za-z0-9]"},
	{"github_pat", `github_pat_\w{22,}`, "github_pat_ + 82[A-Za-z0-9_]"},
	{"gitlab_pat", `glpat-[A-Za-z0-9_-]{20,}(?:\.[a-z0-9]{9})?`, "glpat- + 20+[A-Za-z0-9_-]"},
	{"gitlab_deploy_token", `gldt-[A-Za-z0-9_-]{20,}`, "gldt- + 20+[A-Za-z0-9_-]"},
	{"gitlab_runner_token", `glrt-[A-Za-z0-9_-]{20,}(?:\.[a-z0-9]{9})?`, "glrt- + 20+[A-Za-z0-9_-]"},
	{"gitlab_runner_registration_token", `GR1348941[A-Za-z0-9_-]{20}`, "GR1348941 + 20[A-Za-z0-9_-]"},
	{"gitlab_ci_job_token", `glcbt-[A-Za-z0-9]{1,5}_[A-Za-z0-9_-]{20,}`, "glcbt- + 1 to 5[A-Za-z0-9] + _ + 20[A-Za-z0-9_-]"},
	{"gitlab_pipeline_trigger_token", `glptt-[a-f0-9]{40}`, "glptt- + 40[a-f0-9]"},
	{"gitlab_scim_token", `glsoat-[A-Za-z0-9_-]{20,}`, "glsoat- + 20+[A-Za-z0-9_-]"},
	{"gitlab_feature_flag_token", `glffct-[A-Za-z0-9_-]{20,}`, "glffct- + 20+[A-Za-z0-9_-]"},
	{"gitlab_feed_token", `glft-[A-Za-z0-9_-]{20,}`, "glft- + 20+[A-Za-z0-9_-]"},
	{"gitlab_incoming_mail_token", `glimt-[A-Za-z0-9_-]{25,}`, "glimt- + 25[A-Za-z0-9_-]"},
	{"gitlab_oauth_secret", `gloas-[A-Za-z0-9_-]{64}`, "gloas- + 64[A-Za-z0-9_-]"},
	{"gitlab_agent_token", `glagent-[A-Za-z0-9_-]{50,}`, "glagent- + 50[A-Za-z0-9_-]"},
	{"gitlab_session_cookie", `_gitlab_session=[a-z0-9]{32}`, "_gitlab_session= + 32[a-z0-9]"},
	{"npm_access_token", `npm_[A-Za-z0-9]{36}`, "npm_ + 36[A-Za-z0-9]"},
	{"pypi_upload_token", `pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`, "pypi-AgEIcHlwaS5vcmc + 50+[A-Za-z0-9_-]"},
	{"rubygems_api_key", `rubygems_[a-f0-9]{48}`, "rubygems_ + 48[a-f0-9]"},
	{"clojars_token", `CLOJARS_[a-z0-9]{60}`, "CLOJARS_ + 60[a-z0-9]"},
	{"docker_hub_pat", `dckr_pat_[A-Za-z0-9_-]{27}`, "dckr_pat_ + 27[A-Za-z0-9_-]"},
	{"jfrog_api_key", `AKCp[A-Za-z0-9]{69}`, "AKCp + 69[A-Za-z0-9]"},
	{"jfrog_identity_token", `cmVmd[A-Za-z0-9]{59}`, "cmVmd + 59[A-Za-z0-9]"},
	{"atlassian_api_token", `ATATT3[A-Za-z0-9_=-]{180,}`, "ATATT3 + 186[A-Za-z0-9_=-]"},
	{"sourcegraph_token", `sgp_(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}`, "sgp_ + 16[a-f0-9] + _ + 40[a-f0-9]"},
	{"buildkite_api_token", `bkua_[a-f0-9]{40}`, "bkua_ + 40[a-f0-9]"},
	{"circleci_pat", `CCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}`, "CCIPAT_ + 22[A-Za-z0-9] + _ + 40[a-f0-9]"},
	{"harness_token", `(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}`, "pat. + 22 + . + 24 + . + 20"},
	{"octopus_deploy_api_key", `API-[A-Z0-9]{26}`, "API- + 26[A-Z0-9]"},
	{"pulumi_access_token", `pul-[a-f0-9]{40}`, "pul- + 40[a-f0-9]"},
	{"prefect_api_key", `pnu_[A-Za-z0-9]{36}`, "pnu_ + 36[A-Za-z0-9]"},
	{"infracost_api_token", `ico-[A-Za-z0-9]{32}`, "ico- + 32[A-Za-z0-9]"},
	{"readme_api_key", `rdme_[a-z0-9]{70}`, "rdme_ + 70[a-z0-9]"},
	{"postman_api_key", `PMAK-[a-f0-9]{24}-[a-f0-9]{34}`, "PMAK- + 24[a-f0-9] + - + 34[a-f0-9]"},
	{"scalingo_api_token", `tk-us-[A-Za-z0-9_-]{48}`, "tk-us- + 48[A-Za-z0-9_-]"},
	{"planetscale_password", `pscale_pw_[A-Za-z0-9_=.-]{32,64}`, "pscale_pw_ + 32 to 64[A-Za-z0-9_=.-]"},
	{"planetscale_api_token", `pscale_tkn_[A-Za-z0-9_=.-]{32,64}`, "pscale_tkn_ + 32 to 64[A-Za-z0-9_=.-]"},
	{"planetscale_oauth_token", `pscale_oauth_[A-Za-z0-9_=.-]{32,64}`, "pscale_oauth_ + 32 to 64[A-Za-z0-9_=.-]"},
	{"clickhouse_cloud_api_secret", `4b1d[A-Za-z0-9]{38}`, "4b1d + 38[A-Za-z0-9]"},
	{"adobe_client_secret", `p8e-[A-Za-z0-9]{32}`, "p8e- + 32[A-Za-z0-9]"},
	{"settlemint_token", `sm_(?:aat|pat|sat)_[A-Za-z0-9]{16}`, "sm_pat_ + 16[A-Za-z0-9]"},

	// Secret stores and identity.
	{"vault_service_token", `hvs\.[A-Za-z0-9_-]{90,}`, "hvs. + 90+[A-Za-z0-9_-]"},
	{"vault_batch_token", `hvb\.[A-Za-z0-9_-]{138,}`, "hvb. + 138+[A-Za-z0-9_-]"},
	{"doppler_token", `dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}`, "dp.pt. + 43[A-Za-z0-9]"},
	{"onepassword_service_account_token", `ops_eyJ[A-Za-z0-9+/]{250,}={0,3}`, "ops_eyJ + 250+ base64"},
	{"onepassword_secret_key", `A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}`, "A3- + 6 + - + 11 + - + 5 + - + 5 + - + 5 [A-Z0-9]"},
	{"age_secret_key", `AGE-SECRET-KEY-1[02-9ac-hj-np-z]{58}|AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}`, "AGE-SECRET-KEY-1 + 58 bech32"},
	{"authress_access_key", `(?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_-][A-Za-z0-9-]{10,32}\.[A-Za-z0-9+/_=-]{30,120}`, "sc_ + id + . + key id + .acc_ + account + . + key"},
	{"tailscale_key", `tskey-(?:auth|api|client|webhook|scim)-[A-Za-z0-9]+-[A-Za-z0-9]{20,}`, "tskey-auth- + id + - + 20+[A-Za-z0-9]"},

	// AI providers. The Anthropic keys come before openai_key.
	{"anthropic_api_key", `sk-ant-api03-[A-Za-z0-9_-]{93}AA`, "sk-ant-api03- + 93[A-Za-z0-9_-] + AA"},
	{"anthropic_admin_key", `sk-ant-admin01-[A-Za-z0-9_-]{93}AA`, "sk-ant-admin01- + 93[A-Za-z0-9_-] + AA"},
	{"openai_key", `sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{30,}|sk-[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}`, "sk-proj- (or sk-svcacct- sk-admin-) + 30+[A-Za-z0-9_-], or sk- + …T3BlbkFJ… (20+ either side)"},
	{"huggingface_token", `hf_[A-Za-z]{34}`, "hf_ + 34[A-Za-z]"},
	{"huggingface_org_token", `api_org_[A-Za-z]{34}`, "api_org_ + 34[A-Za-z]"},
	{"perplexity_api_key", `pplx-[A-Za-z0-9]{48}`, "pplx- + 48[A-Za-z0-9]"},
	{"groq_api_key", `gsk_[A-Za-z0-9]{52}`, "gsk_ + 52[A-Za-z0-9]"},
	{"xai_api_key", `xai-[A-Za-z0-9]{80}`, "xai- + 80[A-Za-z0-9]"},
	{"replicate_api_token", `r8_[A-Za-z0-9]{37}`, "r8_ + 37[A-Za-z0-9]"},
	{"langsmith_api_key", `lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}`, "lsv2_pt_ + 32[a-f0-9] + _ + 10[a-f0-9]"},

	// Payments and commerce.
	{"stripe_secret_key", `sk_(?:live|test)_[A-Za-z0-9]{10,}`, "sk_live_ + 24+[A-Za-z0-9]"},
	{"stripe_restricted_key", `rk_(?:live|test)_[A-Za-z0-9]{10,}`, "rk_live_ + 24+[A-Za-z0-9]"},
	{"stripe_webhook_secret", `whsec_[A-Za-z0-9+/=]{32,}`, "whsec_ + 32+ base64"},
	{"square_access_token", `(?:sq0atp-|EAAA)[A-Za-z0-9_-]{22,60}`, "EAAA (or sq0atp-) + 22 to 60[A-Za-z0-9_-]"},
	{"square_oauth_secret", `sq0csp-[A-Za-z0-9_-]{43}`, "sq0csp- + 43[A-Za-z0-9_-]"},
	{"shopify_access_token", `shp(?:at|ca|pa)_[a-fA-F0-9]{32}`, "shpat_ (or shpca_ shppa_) + 32[a-f0-9]"},
	{"shopify_shared_secret", `shpss_[a-fA-F0-9]{32}`, "shpss_ + 32[a-f0-9]"},
	{"flutterwave_secret_key", `FLWSECK(?:_TEST)?-[A-Za-z0-9]{12,32}(?:-X)?`, "FLWSECK- + 32[a-h0-9] + -X"},
	{"duffel_api_token", `duffel_(?:test|live)_[A-Za-z0-9_=-]{43}`, "duffel_live_ + 43[A-Za-z0-9_=-]"},
	{"easypost_api_key", `EZ[AT]K[A-Za-z0-9]{54}`, "EZAK (or EZTK) + 54[A-Za-z0-9]"},
	{"shippo_api_token", `shippo_(?:live|test)_[a-fA-F0-9]{40}`, "shippo_live_ + 40[a-f0-9]"},
	{"facebook_access_token", `EAA[CM][A-Za-z0-9]{100,}`, "EAAC (or EAAM) + 100+[A-Za-z0-9]"},

	// Messaging and communication.
	{"slack_token", `xox(?:[abcoprse]|e\.xox[bp])-[A-Za-z0-9-]{10,}`, "xoxb- (or xoxp- xoxa- xoxe- …) + 10+[A-Za-z0-9-]"},
	{"slack_app_token", `xapp-[0-9]-[A-Za-z0-9]+-[0-9]+-[A-Za-z0-9]+`, "xapp-1- + id + - + digits + - + [a-z0-9]"},
	{"slack_webhook_url", `https://hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9+/_-]{20,})`, "https://hooks.slack.com/services/T…/B…/…"},
	{"discord_webhook_url", `https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/webhooks/([0-9]+/[A-Za-z0-9_-]{60,})`, "https://discord.com/api/webhooks/ + id + / + 68[A-Za-z0-9_-]"},
	{"discord_bot_token", `(?:M[Tjz]|N[DTjz]|O[DT])[A-Za-z0-9_-]{21,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}`, "MT… (the bot's ID in base64url, 23 to 27) + . + 6 + . + 27 to 38[A-Za-z0-9_-]"},
	{"telegram_bot_token", `:AA[A-Za-z0-9_-]{33}`, "bot ID + :AA + 33[A-Za-z0-9_-] (the part from the colon; the ID is public)"},
	{"microsoft_teams_webhook_url", `https://[A-Za-z0-9-]+\.webhook\.office\.com/webhookb2/([A-Za-z0-9@/-]{50,})`, "https://TENANT.webhook.office.com/webhookb2/ + ids"},
	{"twilio_api_key", `SK[a-fA-F0-9]{32}`, "SK + 32[a-f0-9]"},
	{"sendgrid_api_key", `SG\.[A-Za-z0-9_=.-]{66}`, "SG. + 22 + . + 43 [A-Za-z0-9_-]"},
	{"brevo_api_key", `xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}`, "xkeysib- + 64[a-f0-9] + - + 16[A-Za-z0-9]"},
	{"mailgun_api_key", `key-[a-f0-9]{32}`, "key- + 32[a-f0-9]"},
	{"linear_api_key", `lin_api_[A-Za-z0-9]{40}`, "lin_api_ + 40[A-Za-z0-9]"},
	{"notion_api_token", `ntn_[0-9]{11}[A-Za-z0-9]{35}`, "ntn_ + 11[0-9] + 35[A-Za-z0-9]"},
	{"airtable_pat", `pat[A-Za-z0-9]{14}\.[a-f0-9]{64}`, "pat + 14[A-Za-z0-9] + . + 64[a-f0-9]"},

	// Observability.
	{"sentry_org_token", `sntrys_eyJ[A-Za-z0-9+/=_]{40,}`, "sntrys_eyJ + 40+ base64"},
	{"sentry_user_token", `sntryu_[a-f0-9]{64}`, "sntryu_ + 64[a-f0-9]"},
	{"grafana_cloud_token", `glc_[A-Za-z0-9+/]{32,}={0,3}`, "glc_ + 32+ base64"},
	{"grafana_service_account_token", `glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}`, "glsa_ + 32[A-Za-z0-9] + _ + 8[a-f0-9]"},
	{"grafana_api_key", `eyJrIjoi[A-Za-z0-9]{70,}={0,3}`, "eyJrIjoi + 70+[A-Za-z0-9]"},
	{"dynatrace_api_token", `dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}`, "dt0c01. + 24[A-Z0-9] + . + 64[A-Z0-9]"},
	{"newrelic_user_api_key", `NRAK-[A-Z0-9]{27}`, "NRAK- + 27[A-Z0-9]"},
	{"newrelic_insert_key", `NRII-[A-Za-z0-9_-]{32}`, "NRII- + 32[A-Za-z0-9_-]"},
	{"frameio_api_token", `fio-u-[A-Za-z0-9_=-]{64}`, "fio-u- + 64[A-Za-z0-9_=-]"},
	{"intra42_client_secret", `s-s4t2(?:ud|af)-[a-f0-9]{64}`, "s-s4t2ud- + 64[a-f0-9]"},
	{"mapbox_secret_token", `sk\.eyJ[A-Za-z0-9._-]{80,}`, "sk.eyJ + 80+[A-Za-z0-9._-]"},
	{"dropbox_access_token", `sl\.[A-Za-z0-9_-]{130,}`, "sl. + 130+[A-Za-z0-9_-]"},
	{"supabase_access_token", `sbp_[a-f0-9]{40}`, "sbp_ + 40[a-f0-9]"},
	{"netlify_access_token", `nfp_[A-Za-z0-9]{36}`, "nfp_ + 36[A-Za-z0-9]"},
	{"databricks_token", `dapi[a-f0-9]{32}(?:-[0-9])?`, "dapi + 32[a-f0-9]"},

	// Design, content and devices.
	{"figma_pat", `figd_[A-Za-z0-9_-]{40,}`, "figd_ + 40+[A-Za-z0-9_-]"},
	{"contentful_pat", `CFPAT-[A-Za-z0-9_-]{43}`, "CFPAT- + 43[A-Za-z0-9_-]"},
	{"adafruit_io_key", `aio_[A-Za-z0-9]{28}`, "aio_ + 28[A-Za-z0-9]"},

	// Credentials in a URL, keys and tokens of no one provider.
	{"database_url_password", `(?:postgres|postgresql|mysql|mariadb|mongodb|mongodb\+srv|redis|rediss|amqp|amqps)://[^\s:@/"'<>]+:([^\s:@/"'<>$%{}]{3,})@[A-Za-z0-9.-]+`, "postgres://USER:PASSWORD@HOST (mysql, mongodb, redis, amqp)"},
	{"sidekiq_credentials", `(?:http|https)://([a-f0-9]{8}:[a-f0-9]{8})@(?:gems|enterprise)\.contribsys\.com`, "https:// + 8[a-f0-9] + : + 8[a-f0-9] + @gems.contribsys.com"},
	{"private_key", `-----BEGIN[A-Z ]*PRIVATE KEY(?: BLOCK)?-----(?:(?:[^-]|-[^-])*?-----END[A-Z ]*PRIVATE KEY(?: BLOCK)?-----)?`, "-----BEGIN RSA PRIVATE KEY----- … -----END RSA PRIVATE KEY-----"},
	{"jwt", `eyJ[A-Za-z0-9_-]{7,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`, "eyJ… . … . … (three base64url segments)"},
}

// placeholderEntropy is the [Pattern.MinEntropy] of every default kind, in
// bits per byte over the whole match: a token of the format scores 3 or
// more, a placeholder such as "ghp_xxxx…" or "AKIAXXXX…" 1.5 or less.
const placeholderEntropy = 2.5

// DefaultPatterns compiles the default kinds, each with the
// MinEntropy that passes over a placeholder; package guard makes its
// DefaultSecrets of them.
func DefaultPatterns() []Pattern {
	out := make([]Pattern, len(kinds))
	for i, k := range kinds {
		out[i] = Pattern{Name: k.name, Regexp: regexp.MustCompile(k.expr), MinEntropy: placeholderEntropy}
	}
	return out
}

// Default returns the finder of the default kinds, the same one on every
// call, built on the first from the kinds' sources: it compiles a kind's
// expression only when a text holds one of its literals, so a process that
// reads one short text compiles none of the kinds the text does not reach.
// It finds what a finder of [DefaultPatterns] finds.
func Default() *Finder {
	defaultFinder.once.Do(func() { defaultFinder.f = kindsFinder(sourceExpr) })
	return defaultFinder.f
}

// kindsFinder is a finder of the default kinds, each expression the one
// exprOf makes of its source, by the plan worked out when kinds_plan.go
// was generated.
func kindsFinder(exprOf func(src string) expr) *Finder {
	names := make([]string, len(kinds))
	exprs := make([]expr, len(kinds))
	entropies := make([]float64, len(kinds))
	for i, k := range kinds {
		names[i], exprs[i], entropies[i] = k.name, exprOf(k.expr), placeholderEntropy
	}
	return newFinder(names, exprs, entropies, &kindsPlan)
}

// defaultFinder is what [Default] returns. It is a sync.Once and not a
// sync.OnceValue so that the package builds nothing when it loads.
var defaultFinder struct {
	once sync.Once
	f    *Finder
}
