package guard

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
	or "github.com/ChristopherDavenport/openresponses"
)

// The alphabets a test token's random part is drawn from.
const (
	upperNum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	lowerNum = "abcdefghijklmnopqrstuvwxyz0123456789"
	letters  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	alnum    = letters + "0123456789"
	urlSafe  = alnum + "_-"
	base64s  = alnum + "+/"
	hexLower = "0123456789abcdef"
	digits   = "0123456789"
	bech32   = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
)

// fill is n characters of alphabet taken with a stride of 7, so they look
// random; the repository holds only the prefixes and the alphabets, and no
// string a scanner would read as a live token.
func fill(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[(i*7+3)%len(alphabet)]
	}
	return string(b)
}

// dashed is s cut into groups of the sizes, joined by dashes.
func dashed(s string, sizes ...int) string {
	var parts []string
	for _, n := range sizes {
		parts = append(parts, s[:n])
		s = s[n:]
	}
	return strings.Join(parts, "-")
}

// kindCases are, per default kind in DefaultSecrets order, realistic but
// fake tokens of it and near misses of it that are no secret at all: a
// token one character short, the prefix in the wrong case, the wrong
// alphabet. TestPlaceholdersAreNoSecret and TestLookalikesAreNoSecret add
// the placeholder and the phrase, UUID and hash every kind must pass over.
var kindCases = []struct {
	kind    string
	secrets []string
	misses  []string
}{
	{"aws_access_key",
		[]string{"AKIA" + fill(upperNum, 16), "ASIA" + fill(upperNum, 16), "ABIA" + fill(upperNum, 16), "ACCA" + fill(upperNum, 16), "AKIAIOSFODNN7EXAMPLE"},
		[]string{"AKIA" + fill(upperNum, 15), "akia" + fill(upperNum, 16), "AKIA" + fill(lowerNum, 16), "ASIA"}},
	{"aws_bedrock_api_key",
		[]string{"ABSK" + fill(base64s, 120), "bedrock-api-key-" + "YmVkcm9jay5hbWF6b25hd3MuY29t" + fill(base64s, 40)},
		[]string{"ABSK" + fill(base64s, 99), "bedrock-api-key-" + fill(base64s, 40)}},
	{"google_api_key",
		[]string{"AIza" + fill(urlSafe, 35)},
		[]string{"AIza" + fill(urlSafe, 34), "aiza" + fill(urlSafe, 35), "AIZA" + fill(urlSafe, 35)}},
	{"google_oauth_client_secret",
		[]string{"GOCSPX-" + fill(urlSafe, 28)},
		[]string{"GOCSPX-" + fill(urlSafe, 27), "gocspx-" + fill(urlSafe, 28)}},
	{"google_oauth_access_token",
		[]string{"ya29." + fill(urlSafe, 60)},
		[]string{"ya29." + fill(urlSafe, 29), "ya29-" + fill(urlSafe, 60)}},
	{"gcp_service_account",
		[]string{`"type": "service_account"`, `"type":"service_account"`},
		[]string{`"type": "authorized_user"`, `"type": "service account"`, `type: service_account`}},
	{"azure_storage_account_key",
		[]string{"AccountKey=" + fill(base64s, 86) + "=="},
		[]string{"AccountKey=" + fill(base64s, 85) + "==", "accountkey=" + fill(base64s, 86) + "=="}},
	{"alibaba_access_key_id",
		[]string{"LTAI" + fill(alnum, 20), "LTAI" + fill(alnum, 12)},
		[]string{"LTAI" + fill(alnum, 11), "ltai" + fill(alnum, 20)}},
	{"digitalocean_pat",
		[]string{"dop_v1_" + fill(hexLower, 64)},
		[]string{"dop_v1_" + fill(hexLower, 63), "dop_v2_" + fill(hexLower, 64), "dop_v1_" + fill(upperNum, 64)}},
	{"digitalocean_oauth_token",
		[]string{"doo_v1_" + fill(hexLower, 64)},
		[]string{"doo_v1_" + fill(hexLower, 63)}},
	{"digitalocean_refresh_token",
		[]string{"dor_v1_" + fill(hexLower, 64)},
		[]string{"dor_v1_" + fill(hexLower, 63)}},
	{"cloudflare_origin_ca_key",
		[]string{"v1.0-" + fill(hexLower, 24) + "-" + fill(hexLower, 146)},
		[]string{"v1.0-" + fill(hexLower, 24) + "-" + fill(hexLower, 145), "v1.0-beta-release"}},
	{"heroku_api_key",
		[]string{"HRKU-AA" + fill(urlSafe, 58)},
		[]string{"HRKU-AA" + fill(urlSafe, 57), "HRKU-AB" + fill(urlSafe, 58)}},
	{"flyio_token",
		[]string{"fo1_" + fill(urlSafe, 43), "fm2_" + fill(base64s, 120), "fm1a_" + fill(base64s, 120)},
		[]string{"fo1_" + fill(urlSafe, 42), "fm2_" + fill(base64s, 99)}},
	{"openshift_token",
		[]string{"sha256~" + fill(urlSafe, 43)},
		[]string{"sha256~" + fill(urlSafe, 42), "sha256:" + fill(hexLower, 64)}},
	{"github_token",
		[]string{"ghp_" + fill(alnum, 36), "gho_" + fill(alnum, 36), "ghu_" + fill(alnum, 36), "ghs_" + fill(alnum, 36), "ghr_" + fill(alnum, 36), "ghp_" + fill(alnum, 80)},
		[]string{"ghp_" + fill(alnum, 35), "GHP_" + fill(alnum, 36), "ghx_" + fill(alnum, 36)}},
	{"github_pat",
		[]string{"github_pat_" + fill(alnum+"_", 82), "github_pat_" + fill(alnum+"_", 22)},
		[]string{"github_pat_" + fill(alnum+"_", 21), "GITHUB_PAT_" + fill(alnum+"_", 82)}},
	{"gitlab_pat",
		[]string{"glpat-" + fill(urlSafe, 20), "glpat-" + fill(urlSafe, 36) + ".01" + fill(lowerNum, 7)},
		[]string{"glpat-" + fill(urlSafe, 19), "GLPAT-" + fill(urlSafe, 20)}},
	{"gitlab_deploy_token",
		[]string{"gldt-" + fill(urlSafe, 20)},
		[]string{"gldt-" + fill(urlSafe, 19)}},
	{"gitlab_runner_token",
		[]string{"glrt-" + fill(urlSafe, 20), "glrt-t1_" + fill(urlSafe, 27)},
		[]string{"glrt-" + fill(urlSafe, 19)}},
	{"gitlab_runner_registration_token",
		[]string{"GR1348941" + fill(urlSafe, 20)},
		[]string{"GR1348941" + fill(urlSafe, 19), "GR1348942" + fill(urlSafe, 20)}},
	{"gitlab_ci_job_token",
		[]string{"glcbt-64_" + fill(urlSafe, 20)},
		[]string{"glcbt-" + fill(alnum, 20), "glcbt-64_" + fill(urlSafe, 19)}},
	{"gitlab_pipeline_trigger_token",
		[]string{"glptt-" + fill(hexLower, 40)},
		[]string{"glptt-" + fill(hexLower, 39), "glptt-" + fill(upperNum, 40)}},
	{"gitlab_scim_token",
		[]string{"glsoat-" + fill(urlSafe, 20)},
		[]string{"glsoat-" + fill(urlSafe, 19)}},
	{"gitlab_feature_flag_token",
		[]string{"glffct-" + fill(urlSafe, 20)},
		[]string{"glffct-" + fill(urlSafe, 19)}},
	{"gitlab_feed_token",
		[]string{"glft-" + fill(urlSafe, 20)},
		[]string{"glft-" + fill(urlSafe, 19)}},
	{"gitlab_incoming_mail_token",
		[]string{"glimt-" + fill(urlSafe, 25)},
		[]string{"glimt-" + fill(urlSafe, 24)}},
	{"gitlab_oauth_secret",
		[]string{"gloas-" + fill(urlSafe, 64)},
		[]string{"gloas-" + fill(urlSafe, 63)}},
	{"gitlab_agent_token",
		[]string{"glagent-" + fill(urlSafe, 50)},
		[]string{"glagent-" + fill(urlSafe, 49)}},
	{"gitlab_session_cookie",
		[]string{"_gitlab_session=" + fill(lowerNum, 32)},
		[]string{"_gitlab_session=" + fill(lowerNum, 31), "_gitlab_session=" + fill(upperNum, 32)}},
	{"npm_access_token",
		[]string{"npm_" + fill(alnum, 36)},
		[]string{"npm_" + fill(alnum, 35), "NPM_" + fill(alnum, 36)}},
	{"pypi_upload_token",
		[]string{"pypi-AgEIcHlwaS5vcmc" + fill(urlSafe, 70)},
		[]string{"pypi-AgEIcHlwaS5vcmc" + fill(urlSafe, 49), "pypi-" + fill(urlSafe, 70)}},
	{"rubygems_api_key",
		[]string{"rubygems_" + fill(hexLower, 48)},
		[]string{"rubygems_" + fill(hexLower, 47)}},
	{"clojars_token",
		[]string{"CLOJARS_" + fill(lowerNum, 60)},
		[]string{"CLOJARS_" + fill(lowerNum, 59)}},
	{"docker_hub_pat",
		[]string{"dckr_pat_" + fill(urlSafe, 27)},
		[]string{"dckr_pat_" + fill(urlSafe, 26)}},
	{"jfrog_api_key",
		[]string{"AKCp" + fill(alnum, 69)},
		[]string{"AKCp" + fill(alnum, 68)}},
	{"jfrog_identity_token",
		[]string{"cmVmd" + fill(alnum, 59)},
		[]string{"cmVmd" + fill(alnum, 58)}},
	{"atlassian_api_token",
		[]string{"ATATT3" + fill(alnum+"_=-", 186)},
		[]string{"ATATT3" + fill(alnum+"_=-", 179)}},
	{"sourcegraph_token",
		[]string{"sgp_" + fill(hexLower, 16) + "_" + fill(hexLower, 40), "sgp_local_" + fill(hexLower, 40), "sgp_" + fill(hexLower, 40)},
		[]string{"sgp_" + fill(hexLower, 39)}},
	{"buildkite_api_token",
		[]string{"bkua_" + fill(hexLower, 40)},
		[]string{"bkua_" + fill(hexLower, 39)}},
	{"circleci_pat",
		[]string{"CCIPAT_" + fill(alnum, 22) + "_" + fill(hexLower, 40)},
		[]string{"CCIPAT_" + fill(alnum, 22) + "_" + fill(hexLower, 39)}},
	{"harness_token",
		[]string{"pat." + fill(urlSafe, 22) + "." + fill(alnum, 24) + "." + fill(alnum, 20)},
		[]string{"pat." + fill(urlSafe, 22) + "." + fill(alnum, 24) + "." + fill(alnum, 19)}},
	{"octopus_deploy_api_key",
		[]string{"API-" + fill(upperNum, 26)},
		[]string{"API-" + fill(upperNum, 25), "API-" + fill(lowerNum, 26)}},
	{"pulumi_access_token",
		[]string{"pul-" + fill(hexLower, 40)},
		[]string{"pul-" + fill(hexLower, 39)}},
	{"prefect_api_key",
		[]string{"pnu_" + fill(alnum, 36)},
		[]string{"pnu_" + fill(alnum, 35)}},
	{"infracost_api_token",
		[]string{"ico-" + fill(alnum, 32)},
		[]string{"ico-" + fill(alnum, 31)}},
	{"readme_api_key",
		[]string{"rdme_" + fill(lowerNum, 70)},
		[]string{"rdme_" + fill(lowerNum, 69)}},
	{"postman_api_key",
		[]string{"PMAK-" + fill(hexLower, 24) + "-" + fill(hexLower, 34)},
		[]string{"PMAK-" + fill(hexLower, 24) + "-" + fill(hexLower, 33)}},
	{"scalingo_api_token",
		[]string{"tk-us-" + fill(urlSafe, 48)},
		[]string{"tk-us-" + fill(urlSafe, 47)}},
	{"planetscale_password",
		[]string{"pscale_pw_" + fill(urlSafe+".=", 43)},
		[]string{"pscale_pw_" + fill(urlSafe, 31)}},
	{"planetscale_api_token",
		[]string{"pscale_tkn_" + fill(urlSafe+".=", 43)},
		[]string{"pscale_tkn_" + fill(urlSafe, 31)}},
	{"planetscale_oauth_token",
		[]string{"pscale_oauth_" + fill(urlSafe+".=", 43)},
		[]string{"pscale_oauth_" + fill(urlSafe, 31)}},
	{"clickhouse_cloud_api_secret",
		[]string{"4b1d" + fill(alnum, 38)},
		[]string{"4b1d" + fill(alnum, 37)}},
	{"adobe_client_secret",
		[]string{"p8e-" + fill(alnum, 32)},
		[]string{"p8e-" + fill(alnum, 31)}},
	{"settlemint_token",
		[]string{"sm_pat_" + fill(alnum, 16), "sm_aat_" + fill(alnum, 16), "sm_sat_" + fill(alnum, 16)},
		[]string{"sm_pat_" + fill(alnum, 15), "sm_xat_" + fill(alnum, 16)}},
	{"vault_service_token",
		[]string{"hvs." + fill(urlSafe, 95)},
		[]string{"hvs." + fill(urlSafe, 89)}},
	{"vault_batch_token",
		[]string{"hvb." + fill(urlSafe, 140)},
		[]string{"hvb." + fill(urlSafe, 137)}},
	{"doppler_token",
		[]string{"dp.pt." + fill(alnum, 43), "dp.st." + fill(alnum, 40), "dp.sa." + fill(alnum, 44)},
		[]string{"dp.pt." + fill(alnum, 39), "dp.xx." + fill(alnum, 43)}},
	{"onepassword_service_account_token",
		[]string{"ops_eyJ" + fill(base64s, 260)},
		[]string{"ops_eyJ" + fill(base64s, 249)}},
	{"onepassword_secret_key",
		[]string{
			"A3-" + dashed(fill(upperNum, 40), 6, 11, 5, 5, 5),
			"A3-" + dashed(fill(upperNum, 40), 6, 6, 5, 5, 5, 5),
		},
		[]string{"A3-" + dashed(fill(upperNum, 40), 6, 11, 5, 5, 4), "A3-" + dashed(fill(lowerNum, 40), 6, 11, 5, 5, 5)}},
	{"age_secret_key",
		[]string{"AGE-SECRET-KEY-1" + fill(bech32, 58)},
		[]string{"AGE-SECRET-KEY-1" + fill(bech32, 57), "AGE-SECRET-KEY-1" + strings.Repeat("B", 58)}},
	{"authress_access_key",
		[]string{"sc_" + fill(alnum, 20) + "." + fill(alnum, 5) + ".acc_" + fill(lowerNum, 16) + "." + fill(base64s, 64)},
		[]string{"sc_" + fill(alnum, 20) + "." + fill(alnum, 5) + ".acc_" + fill(lowerNum, 16) + "." + fill(base64s, 29)}},
	{"tailscale_key",
		[]string{"tskey-auth-" + fill(alnum, 12) + "-" + fill(alnum, 30), "tskey-api-" + fill(alnum, 12) + "-" + fill(alnum, 30)},
		[]string{"tskey-auth-" + fill(alnum, 12) + "-" + fill(alnum, 19), "tskey-other-" + fill(alnum, 12) + "-" + fill(alnum, 30)}},
	{"anthropic_api_key",
		[]string{"sk-ant-api03-" + fill(urlSafe, 93) + "AA"},
		[]string{"sk-ant-api03-" + fill(urlSafe, 92) + "AA", "sk-ant-api03-" + fill(urlSafe, 93) + "BB"}},
	{"anthropic_admin_key",
		[]string{"sk-ant-admin01-" + fill(urlSafe, 93) + "AA"},
		[]string{"sk-ant-admin01-" + fill(urlSafe, 92) + "AA"}},
	{"openai_key",
		[]string{
			"sk-proj-" + fill(urlSafe, 74) + "T3BlbkFJ" + fill(urlSafe, 74),
			"sk-" + fill(alnum, 20) + "T3BlbkFJ" + fill(alnum, 20),
			"sk-svcacct-" + fill(urlSafe, 58) + "T3BlbkFJ" + fill(urlSafe, 58),
		},
		[]string{"sk-" + fill(alnum, 48), "sk-proj-" + fill(urlSafe, 19) + "T3BlbkFJ" + fill(urlSafe, 19), "SK-" + fill(alnum, 20) + "T3BlbkFJ" + fill(alnum, 20)}},
	{"huggingface_token",
		[]string{"hf_" + fill(letters, 34)},
		[]string{"hf_" + fill(letters, 33), "hf_" + fill(digits, 34)}},
	{"huggingface_org_token",
		[]string{"api_org_" + fill(letters, 34)},
		[]string{"api_org_" + fill(letters, 33)}},
	{"perplexity_api_key",
		[]string{"pplx-" + fill(alnum, 48)},
		[]string{"pplx-" + fill(alnum, 47)}},
	{"groq_api_key",
		[]string{"gsk_" + fill(alnum, 52)},
		[]string{"gsk_" + fill(alnum, 51)}},
	{"xai_api_key",
		[]string{"xai-" + fill(alnum, 80)},
		[]string{"xai-" + fill(alnum, 79)}},
	{"replicate_api_token",
		[]string{"r8_" + fill(alnum, 37)},
		[]string{"r8_" + fill(alnum, 36)}},
	{"langsmith_api_key",
		[]string{"lsv2_pt_" + fill(hexLower, 32) + "_" + fill(hexLower, 10), "lsv2_sk_" + fill(hexLower, 32) + "_" + fill(hexLower, 10)},
		[]string{"lsv2_pt_" + fill(hexLower, 32) + "_" + fill(hexLower, 9)}},
	{"stripe_secret_key",
		[]string{"sk_live_" + fill(alnum, 24), "sk_test_" + fill(alnum, 99)},
		[]string{"sk_live_" + fill(alnum, 9), "sk_demo_" + fill(alnum, 24), "SK_LIVE_" + fill(alnum, 24)}},
	{"stripe_restricted_key",
		[]string{"rk_live_" + fill(alnum, 24), "rk_test_" + fill(alnum, 24)},
		[]string{"rk_live_" + fill(alnum, 9)}},
	{"stripe_webhook_secret",
		[]string{"whsec_" + fill(alnum, 32)},
		[]string{"whsec_" + fill(alnum, 31)}},
	{"square_access_token",
		[]string{"EAAA" + fill(urlSafe, 60), "sq0atp-" + fill(urlSafe, 22)},
		[]string{"EAAA" + fill(urlSafe, 21), "sq0atp-" + fill(urlSafe, 21)}},
	{"square_oauth_secret",
		[]string{"sq0csp-" + fill(urlSafe, 43)},
		[]string{"sq0csp-" + fill(urlSafe, 42)}},
	{"shopify_access_token",
		[]string{"shpat_" + fill(hexLower, 32), "shpca_" + fill(hexLower, 32), "shppa_" + fill(hexLower, 32)},
		[]string{"shpat_" + fill(hexLower, 31), "shpat_" + fill(lowerNum, 32)}},
	{"shopify_shared_secret",
		[]string{"shpss_" + fill(hexLower, 32)},
		[]string{"shpss_" + fill(hexLower, 31)}},
	{"flutterwave_secret_key",
		[]string{"FLWSECK_TEST-" + fill(hexLower, 32) + "-X", "FLWSECK-" + fill(hexLower, 32) + "-X", "FLWSECK_TEST-" + fill(hexLower, 12)},
		[]string{"FLWSECK_TEST-" + fill(hexLower, 11), "FLWPUBK_TEST-" + fill(hexLower, 32) + "-X"}},
	{"duffel_api_token",
		[]string{"duffel_live_" + fill(urlSafe, 43), "duffel_test_" + fill(urlSafe, 43)},
		[]string{"duffel_live_" + fill(urlSafe, 42)}},
	{"easypost_api_key",
		[]string{"EZAK" + fill(alnum, 54), "EZTK" + fill(alnum, 54)},
		[]string{"EZAK" + fill(alnum, 53), "EZXK" + fill(alnum, 54)}},
	{"shippo_api_token",
		[]string{"shippo_live_" + fill(hexLower, 40), "shippo_test_" + fill(hexLower, 40)},
		[]string{"shippo_live_" + fill(hexLower, 39)}},
	{"facebook_access_token",
		[]string{"EAAC" + fill(alnum, 120), "EAAM" + fill(alnum, 100)},
		[]string{"EAAC" + fill(alnum, 99), "EAAB" + fill(alnum, 120)}},
	{"slack_token",
		[]string{"xoxb-1234567890", "xoxa-2-abcdefgh", "xoxp-123-456-789-abc", "xoxr-abcdefghij", "xoxs-0123456789", "xoxe-1-" + fill(upperNum, 146), "xoxe.xoxp-1-" + fill(alnum, 160)},
		[]string{"xoxb-123456789", "XOXB-1234567890", "xoxz-1234567890", "xoxb_1234567890"}},
	{"slack_app_token",
		[]string{"xapp-1-A" + fill(upperNum, 10) + "-" + fill(digits, 13) + "-" + fill(hexLower, 64)},
		[]string{"xapp-1-A" + fill(upperNum, 10), "xapp-x-A" + fill(upperNum, 10) + "-" + fill(digits, 13) + "-" + fill(hexLower, 64)}},
	{"slack_webhook_url",
		[]string{"https://hooks.slack.com/services/T" + fill(upperNum, 10) + "/B" + fill(upperNum, 10) + "/" + fill(alnum, 24)},
		[]string{"https://hooks.slack.com/services/T123", "https://hooks.slack.com/other/T" + fill(upperNum, 10) + "/B" + fill(upperNum, 10) + "/" + fill(alnum, 24)}},
	{"discord_webhook_url",
		[]string{"https://discord.com/api/webhooks/" + fill(digits, 19) + "/" + fill(urlSafe, 68), "https://discordapp.com/api/webhooks/" + fill(digits, 18) + "/" + fill(urlSafe, 68)},
		[]string{"https://discord.com/api/webhooks/" + fill(digits, 19) + "/" + fill(urlSafe, 59)}},
	{"microsoft_teams_webhook_url",
		[]string{"https://contoso.webhook.office.com/webhookb2/" + fill(hexLower, 8) + "-" + fill(hexLower, 4) + "-" + fill(hexLower, 4) + "-" + fill(hexLower, 4) + "-" + fill(hexLower, 12) + "@" + fill(hexLower, 36) + "/IncomingWebhook/" + fill(hexLower, 32) + "/" + fill(hexLower, 36)},
		[]string{"https://contoso.webhook.office.com/webhookb2/" + fill(hexLower, 8)}},
	{"twilio_api_key",
		[]string{"SK" + fill(hexLower, 32)},
		[]string{"SK" + fill(hexLower, 31), "SK" + fill(lowerNum, 32)}},
	{"sendgrid_api_key",
		[]string{"SG." + fill(urlSafe, 22) + "." + fill(urlSafe, 43)},
		[]string{"SG." + fill(urlSafe, 22) + "." + fill(urlSafe, 40), "sg." + fill(urlSafe, 22) + "." + fill(urlSafe, 43)}},
	{"brevo_api_key",
		[]string{"xkeysib-" + fill(hexLower, 64) + "-" + fill(alnum, 16)},
		[]string{"xkeysib-" + fill(hexLower, 64) + "-" + fill(alnum, 15)}},
	{"mailgun_api_key",
		[]string{"key-" + fill(hexLower, 32)},
		[]string{"key-" + fill(hexLower, 31), "key-value-store-for-the-session"}},
	{"linear_api_key",
		[]string{"lin_api_" + fill(alnum, 40)},
		[]string{"lin_api_" + fill(alnum, 39)}},
	{"notion_api_token",
		[]string{"ntn_" + fill(digits, 11) + fill(alnum, 35)},
		[]string{"ntn_" + fill(digits, 11) + fill(alnum, 34), "ntn_" + fill(letters, 46)}},
	{"airtable_pat",
		[]string{"pat" + fill(alnum, 14) + "." + fill(hexLower, 64)},
		[]string{"pat" + fill(alnum, 14) + "." + fill(hexLower, 63)}},
	{"sentry_org_token",
		[]string{"sntrys_eyJ" + fill(base64s, 80)},
		[]string{"sntrys_eyJ" + fill(base64s, 39)}},
	{"sentry_user_token",
		[]string{"sntryu_" + fill(hexLower, 64)},
		[]string{"sntryu_" + fill(hexLower, 63)}},
	{"grafana_cloud_token",
		[]string{"glc_" + fill(base64s, 40) + "=="},
		[]string{"glc_" + fill(base64s, 31)}},
	{"grafana_service_account_token",
		[]string{"glsa_" + fill(alnum, 32) + "_" + fill(hexLower, 8)},
		[]string{"glsa_" + fill(alnum, 32) + "_" + fill(hexLower, 7)}},
	{"grafana_api_key",
		[]string{"eyJrIjoi" + fill(alnum, 80) + "=="},
		[]string{"eyJrIjoi" + fill(alnum, 69)}},
	{"dynatrace_api_token",
		[]string{"dt0c01." + fill(upperNum, 24) + "." + fill(upperNum, 64)},
		[]string{"dt0c01." + fill(upperNum, 24) + "." + fill(upperNum, 63)}},
	{"newrelic_user_api_key",
		[]string{"NRAK-" + fill(upperNum, 27)},
		[]string{"NRAK-" + fill(upperNum, 26), "NRAK-" + fill(lowerNum, 27)}},
	{"newrelic_insert_key",
		[]string{"NRII-" + fill(urlSafe, 32)},
		[]string{"NRII-" + fill(urlSafe, 31)}},
	{"frameio_api_token",
		[]string{"fio-u-" + fill(urlSafe, 64)},
		[]string{"fio-u-" + fill(urlSafe, 63)}},
	{"intra42_client_secret",
		[]string{"s-s4t2ud-" + fill(hexLower, 64), "s-s4t2af-" + fill(hexLower, 64)},
		[]string{"s-s4t2ud-" + fill(hexLower, 63)}},
	{"mapbox_secret_token",
		[]string{"sk.eyJ" + fill(urlSafe, 90)},
		[]string{"sk.eyJ" + fill(urlSafe, 79), "pk.eyJ" + fill(urlSafe, 90)}},
	{"dropbox_access_token",
		[]string{"sl." + fill(urlSafe, 140)},
		[]string{"sl." + fill(urlSafe, 129)}},
	{"supabase_access_token",
		[]string{"sbp_" + fill(hexLower, 40)},
		[]string{"sbp_" + fill(hexLower, 39)}},
	{"netlify_access_token",
		[]string{"nfp_" + fill(alnum, 36)},
		[]string{"nfp_" + fill(alnum, 35)}},
	{"databricks_token",
		[]string{"dapi" + fill(hexLower, 32), "dapi" + fill(hexLower, 32) + "-2"},
		[]string{"dapi" + fill(hexLower, 31), "dapi" + fill(upperNum, 32)}},
	{"database_url_password",
		[]string{
			"postgres://app:" + fill(alnum, 16) + "@db.internal",
			"mongodb+srv://admin:" + fill(alnum, 20) + "@cluster0.example.net",
			"redis://default:" + fill(alnum, 24) + "@cache.internal",
			"mysql://root:" + fill(alnum, 12) + "@127.0.0.1",
		},
		[]string{"postgres://app@db.internal/app", "postgres://${DB_USER}:${DB_PASSWORD}@db/app", "postgres://localhost:5432/app", "http://user:" + fill(alnum, 16) + "@example.com"}},
	{"sidekiq_credentials",
		[]string{"https://" + fill(hexLower, 8) + ":" + fill(hexLower, 8) + "@gems.contribsys.com", "http://" + fill(hexLower, 8) + ":" + fill(hexLower, 8) + "@enterprise.contribsys.com"},
		[]string{"https://" + fill(hexLower, 8) + ":" + fill(hexLower, 7) + "@gems.contribsys.com/"}},
	{"private_key",
		[]string{
			"-----BEGIN RSA PRIVATE KEY-----\n" + pemBody + "-----END RSA PRIVATE KEY-----",
			"-----BEGIN PRIVATE KEY-----\n" + pemBody + "-----END PRIVATE KEY-----",
			"-----BEGIN OPENSSH PRIVATE KEY-----",
			"-----BEGIN PGP PRIVATE KEY BLOCK-----\n" + pemBody + "-----END PGP PRIVATE KEY BLOCK-----",
		},
		[]string{"-----BEGIN PUBLIC KEY-----\n" + pemBody + "-----END PUBLIC KEY-----", "-----begin private key-----", "----BEGIN PRIVATE KEY-----"}},
	{"jwt",
		[]string{"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0." + fill(urlSafe, 43), "eyJ0123456.abcdefghij.ABCDEFGHIJ"},
		[]string{"eyJ0123456.abcdefghij.ABCDEFGHI", "eyJ012345.abcdefghij.ABCDEFGHIJ", "EYJ0123456.abcdefghij.ABCDEFGHIJ", "eyJ0123456.abcdefghij"}},
}

// lookalikes are texts that look like a key to a careless eye and are none:
// no default kind may find one.
var lookalikes = []string{
	"a risk-management-framework-for-everyone",
	"state-of-the-art, well-known and read-only",
	"123e4567-e89b-12d3-a456-426614174000",
	"sha256:" + fill(hexLower, 64),
	"commit " + fill(hexLower, 40),
	"md5 " + fill(hexLower, 32),
	"sk-ant-" + strings.Repeat("x", 40),
	"sk-ant-api03-" + strings.Repeat("x", 93) + "AA",
	"sk-" + strings.Repeat("x", 20) + "T3BlbkFJ" + strings.Repeat("x", 20),
	"ghp_" + strings.Repeat("x", 36),
	"AKIAXXXXXXXXXXXXXXXX",
	"sk_live_" + strings.Repeat("x", 24),
	"<YOUR_API_KEY>",
	"${GITHUB_TOKEN}",
	"export OPENAI_API_KEY=sk-...",
	"token := oauth2.StaticTokenSource(&oauth2.Token{AccessToken: tok})",
	"the key-value store keeps session keys",
	"https://github.com/ChristopherDavenport/agentpolicy/blob/main/README.md",
	"postgres://localhost:5432/app?sslmode=disable",
	"SKIP_THIS_TEST_WHEN_OFFLINE API-VERSION dapi-handler",
	"the eyJ prefix begins a JWT",
}

func TestDefaultSecretsAreTheKinds(t *testing.T) {
	if len(DefaultSecrets) < 50 || len(DefaultSecrets) != len(kinds) {
		t.Fatalf("%d default secrets from %d kinds, want the same and 50 or more", len(DefaultSecrets), len(kinds))
	}
	seen := map[string]bool{}
	for i, p := range DefaultSecrets {
		if p.Name != kinds[i].name || p.Regexp.String() != kinds[i].expr {
			t.Errorf("DefaultSecrets[%d] is %s %s, want the kind %s", i, p.Name, p.Regexp, kinds[i].name)
		}
		if seen[p.Name] {
			t.Errorf("%s is listed twice", p.Name)
		}
		seen[p.Name] = true
	}
	if len(kindCases) != len(kinds) {
		t.Fatalf("%d kinds have cases, want all %d", len(kindCases), len(kinds))
	}
	for i, tc := range kindCases {
		if tc.kind != kinds[i].name || len(tc.secrets) == 0 || len(tc.misses) == 0 {
			t.Errorf("cases %d are for %s with %d secrets and %d misses, want %s with some of each", i, tc.kind, len(tc.secrets), len(tc.misses), kinds[i].name)
		}
	}
}

// TestEveryDefaultKindHasALiteralPrefix keeps the fast path: a kind without
// a literal prefix would be run over every byte of every window.
func TestEveryDefaultKindHasALiteralPrefix(t *testing.T) {
	m := newMatcher(regexps(DefaultSecrets))
	for i, p := range DefaultSecrets {
		if !m.prefixed[i] {
			t.Errorf("%s (%s) has no literal prefix", p.Name, p.Regexp)
		}
	}
	if !m.local {
		t.Errorf("a default kind holds an assertion")
	}
}

func regexps(patterns []Pattern) []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(patterns))
	for i, p := range patterns {
		out[i] = p.Regexp
	}
	return out
}

// defaultMatcher finds the default kinds as the guards do, placeholders
// passed over.
var defaultMatcher = newSecretMatcher(nil)

// secretIn is the kind and the text of the first default secret in text.
func secretIn(text string) (kind, secret string, ok bool) {
	sp, ok := defaultMatcher.m.first(text)
	if !ok {
		return "", "", false
	}
	return defaultMatcher.patterns[sp.pattern].Name, text[sp.start:sp.end], true
}

// check runs g over text as a user message.
func check(t *testing.T, g Guard, text string) Verdict {
	t.Helper()
	v, err := g.Check(context.Background(), Input{Items: or.Items{or.UserText(text)}})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSecretsDetectsEachDefaultKind(t *testing.T) {
	g := Secrets()
	for _, tc := range kindCases {
		for _, secret := range tc.secrets {
			t.Run(tc.kind+"/"+secret[:min(len(secret), 24)], func(t *testing.T) {
				v := check(t, g, "token: "+secret+" ok")
				if v.Action != agentturn.Block || v.Reason != "secret detected: "+tc.kind {
					t.Fatalf("verdict %+v, want a block naming %s", v, tc.kind)
				}
			})
		}
	}
}

func TestRedactReplacesEachDefaultKind(t *testing.T) {
	g := Redact()
	for _, tc := range kindCases {
		for _, secret := range tc.secrets {
			t.Run(tc.kind+"/"+secret[:min(len(secret), 24)], func(t *testing.T) {
				v, err := g.Check(context.Background(), Input{Instructions: "token: " + secret + " ok"})
				if err != nil {
					t.Fatal(err)
				}
				want := "token: [REDACTED " + tc.kind + "] ok"
				if v.Instructions == nil || *v.Instructions != want || v.Reason != "redacted 1 secret: "+tc.kind {
					t.Fatalf("verdict %+v (instructions %v), want %q", v, v.Instructions, want)
				}
			})
		}
	}
}

// assertNoSecret checks that neither Secrets nor Redact finds anything in
// text.
func assertNoSecret(t *testing.T, text string) {
	t.Helper()
	for _, g := range []Guard{Secrets(), Redact()} {
		if v := check(t, g, "token: "+text+" ok"); v.Action != agentturn.Allow || v.Reason != "" || v.Items != nil {
			t.Fatalf("%s: verdict %+v over %q, want a pass", g.Name(), v, text)
		}
	}
}

func TestNearMissesAreNoSecret(t *testing.T) {
	for _, tc := range kindCases {
		for _, miss := range tc.misses {
			t.Run(tc.kind+"/"+miss[:min(len(miss), 24)], func(t *testing.T) { assertNoSecret(t, miss) })
		}
	}
}

func TestLookalikesAreNoSecret(t *testing.T) {
	for _, text := range lookalikes {
		t.Run(text[:min(len(text), 24)], func(t *testing.T) { assertNoSecret(t, text) })
	}
}

// placeholder is secret with every letter and digit after its kind's
// literal prefix written as x: the token a README shows.
func placeholder(t *testing.T, kind, secret string) string {
	t.Helper()
	prefix := ""
	for _, p := range literalPrefixes(DefaultSecrets[kindIndex(kind)].Regexp.String()) {
		if strings.HasPrefix(secret, p) && len(p) > len(prefix) {
			prefix = p
		}
	}
	if prefix == "" {
		t.Fatalf("%s %.20q begins with no prefix of its kind", kind, secret)
	}
	rest := []byte(secret[len(prefix):])
	for i, c := range rest {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			rest[i] = 'x'
		}
	}
	return prefix + string(rest)
}

func TestPlaceholdersAreNoSecret(t *testing.T) {
	for _, tc := range kindCases {
		switch tc.kind {
		case "gcp_service_account", "database_url_password", "sidekiq_credentials":
			continue // the prefix is the whole secret, or the text around it is not
		}
		text := placeholder(t, tc.kind, tc.secrets[0])
		t.Run(tc.kind, func(t *testing.T) { assertNoSecret(t, text) })
	}
}

// TestTheEarlierKindWins checks the documented order where two kinds
// match at the same byte.
func TestTheEarlierKindWins(t *testing.T) {
	for _, tc := range []struct{ text, kind string }{
		{"sk-ant-api03-" + fill(urlSafe, 93) + "AA", "anthropic_api_key"},
		{"eyJrIjoi" + fill(alnum, 80) + "." + fill(alnum, 20) + "." + fill(alnum, 20), "grafana_api_key"},
	} {
		if v := check(t, Secrets(), tc.text); v.Reason != "secret detected: "+tc.kind {
			t.Errorf("%.20q: %q, want %s", tc.text, v.Reason, tc.kind)
		}
	}
}

// kindRow is a kind's row in the README's kinds table.
func kindRow(k kind) string {
	return "| `" + k.name + "` | " + strings.ReplaceAll(k.shape, "|", `\|`) + " |"
}

// TestTheREADMEListsEveryKind keeps the README's kinds table the list of
// DefaultSecrets, in order, each with its shape.
func TestTheREADMEListsEveryKind(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "| kind | example shape |\n| --- | --- |\n")
	if !ok {
		t.Fatal("the README has no kinds table")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	rows := strings.Split(table, "\n")
	var want []string
	for _, k := range kinds {
		want = append(want, kindRow(k))
	}
	if !slices.Equal(rows, want) {
		t.Errorf("the README's kinds table is\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}
