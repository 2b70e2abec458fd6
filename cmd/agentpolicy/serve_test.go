package main

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ChristopherDavenport/agentpolicy/pgjournal"
	"github.com/chromedp/chromedp"
)

func TestServeNeedsATokenOffLoopback(t *testing.T) {
	dir := t.TempDir()
	short, long := filepath.Join(dir, "short"), filepath.Join(dir, "long")
	os.WriteFile(short, []byte("abc\n"), 0o600)
	os.WriteFile(long, []byte("0123456789abcdef0123\n"), 0o600)
	for _, tc := range []struct {
		listen, file, token, err string
	}{
		{"127.0.0.1:0", "", "", ""},
		{"[::1]:0", "", "", ""},
		{"localhost:0", "", "", ""},
		{"0.0.0.0:8765", "", "", "not a loopback address: give --token-file"},
		{"192.0.2.1:8765", "", "", "not a loopback address"},
		{"0.0.0.0:8765", short, "", "at least 16 characters"},
		{"0.0.0.0:8765", long, "0123456789abcdef0123", ""},
	} {
		token, err := serveToken(tc.listen, tc.file)
		if tc.err == "" && (err != nil || token != tc.token) || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("serveToken(%s, %q) = %q, %v; want %q, %q", tc.listen, tc.file, token, err, tc.token, tc.err)
		}
	}
}

// stubQueue is a queue of one call that records the answers it gets.
type stubQueue struct{ answers []string }

func (q *stubQueue) pending(context.Context) ([]pendingCall, error) {
	return []pendingCall{{ID: "1", Tool: "Bash", Input: `{"command":"make deploy"}`, Suggested: "Bash(make deploy)", RuleEditable: true}}, nil
}

func (q *stubQueue) approve(_ context.Context, id string, once bool, rule, by string) error {
	q.answers = append(q.answers, "approve "+id+" "+rule)
	return nil
}

func (q *stubQueue) deny(_ context.Context, id, by, reason string) error {
	q.answers = append(q.answers, "deny "+id+" "+reason)
	return nil
}

// A form answered from another site, or without the page's own form
// token, or a request to another host name, changes nothing; the page's
// own form does.
func TestServeRefusesCrossSiteAndForeignRequests(t *testing.T) {
	q := &stubQueue{}
	p := newPage(q, "127.0.0.1:8765", "", "ana")
	post := func(form url.Values, header map[string]string) int {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8765/deny", strings.NewReader(form.Encode()))
		r.Host = "127.0.0.1:8765"
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range header {
			if k == "Host" {
				r.Host = v
			} else {
				r.Header.Set(k, v)
			}
		}
		w := httptest.NewRecorder()
		p.ServeHTTP(w, r)
		return w.Code
	}
	good := url.Values{"csrf": {p.csrf}, "id": {"1"}, "reason": {"no"}}
	for name, tc := range map[string]struct {
		form   url.Values
		header map[string]string
		code   int
	}{
		"no form token":    {url.Values{"id": {"1"}}, nil, http.StatusForbidden},
		"wrong form token": {url.Values{"csrf": {"x"}, "id": {"1"}}, nil, http.StatusForbidden},
		"cross-site":       {good, map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		"rebound host":     {good, map[string]string{"Host": "evil.example:8765"}, http.StatusMisdirectedRequest},
	} {
		if code := post(tc.form, tc.header); code != tc.code {
			t.Errorf("%s: %d; want %d", name, code, tc.code)
		}
	}
	if len(q.answers) != 0 {
		t.Fatalf("answers %v; want none", q.answers)
	}
	if code := post(good, map[string]string{"Sec-Fetch-Site": "same-origin"}); code != http.StatusOK || len(q.answers) != 1 || q.answers[0] != "deny 1 no" {
		t.Errorf("the page's own form: %d, %v; want the call denied", code, q.answers)
	}
}

func TestServeAsksForItsToken(t *testing.T) {
	p := newPage(&stubQueue{}, "0.0.0.0:8765", "0123456789abcdef", "ana")
	get := func(target string, cookie *http.Cookie) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, target, nil)
		if cookie != nil {
			r.AddCookie(cookie)
		}
		w := httptest.NewRecorder()
		p.ServeHTTP(w, r)
		return w
	}
	if w := get("http://db.internal:8765/", nil); w.Code != http.StatusUnauthorized {
		t.Errorf("no token: %d; want 401", w.Code)
	}
	if w := get("http://db.internal:8765/?token=wrong", nil); w.Code != http.StatusUnauthorized {
		t.Errorf("a wrong token: %d; want 401", w.Code)
	}
	w := get("http://db.internal:8765/?token=0123456789abcdef", nil)
	cookies := w.Result().Cookies()
	if w.Code != http.StatusOK || len(cookies) != 1 || !cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("the token: %d, %v; want the page and a strict cookie", w.Code, cookies)
	}
	if w := get("http://db.internal:8765/", cookies[0]); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "make deploy") {
		t.Errorf("the cookie: %d; want the page", w.Code)
	}
}

// The page in a real browser: a reviewer approves a queued call once, and
// the next hook run allows it; a queued input holding <script> shows as
// text, and does not run.
func TestServeInChromium(t *testing.T) {
	r := newFleetRig(t)
	db := r.db(false)
	for _, c := range []struct{ call, command string }{
		{"toolu_1", "make deploy"},
		{"toolu_2", `make "<script>document.title='pwned'</script><img src=x onerror=alert(1)>"`},
	} {
		if run := r.hook(r.event("s", c.call, c.command), "--unattended", db); run.decision != "deny" {
			t.Fatalf("%s: %+v; want queued", c.command, run)
		}
	}
	d, err := pgjournal.Open(context.Background(), db, pgjournal.Options{Pool: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: newPage(dbQueue{d}, ln.Addr().String(), "", "ana")}
	go srv.Serve(ln)
	defer srv.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromiumPath(t)), chromedp.NoSandbox, chromedp.DisableGPU)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	// The browser lives as long as the context of its first run, which
	// must have no deadline of its own: the timer bounds the whole test.
	defer time.AfterFunc(60*time.Second, cancel).Stop()

	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+ln.Addr().String()+"/"), chromedp.WaitVisible(chromedp.CSS("#call-2"))); err != nil {
		t.Fatal(err)
	}
	input, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#call-2 pre.input")))
	if err != nil {
		t.Fatal(err)
	}
	title, err := chromedp.Run(ctx, chromedp.Title())
	if err != nil {
		t.Fatal(err)
	}
	if title != "agentpolicy: calls waiting for a person" || !strings.Contains(input, "<script>document.title='pwned'</script>") {
		t.Errorf("title %q, input %q; want the page's title and the script shown as text", title, input)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#call-1 button[name="once"]`)), chromedp.WaitVisible(chromedp.CSS("#message"))); err != nil {
		t.Fatal(err)
	}
	message, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#message")))
	if err != nil {
		t.Fatal(err)
	}
	if title, _ = chromedp.Run(ctx, chromedp.Title()); message != "approved call 1 once" || title == "pwned" {
		t.Errorf("after the click: message %q, title %q; want the approval, and no script run", message, title)
	}
	if run := r.hook(r.event("s", "toolu_3", "make deploy"), "--unattended", db); run.decision != "allow" {
		t.Errorf("the next run of the approved call: %+v; want allow", run)
	}
}

// chromiumPath is Debian's chromium, which .ci/run installs.
func chromiumPath(t *testing.T) string {
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Fatal("chromium is not installed: on Debian, apt-get install chromium")
	return ""
}

// The page over a file queue answers as queue approve and queue reject
// do: approve always writes the call's rule into the local settings, deny
// records the refusal, and what a file cannot hold, a one-time approval
// or another rule, is refused and changes nothing.
func TestServeOverAFileQueue(t *testing.T) {
	w := newQueueWorld(t)
	var f settingsFlags
	f.project, f.userDir, f.managedDir, f.trust = w.dir, filepath.Join(w.dir, "nouser"), filepath.Join(w.dir, "nomanaged"), true
	p := newPage(fileQueue{flags: &f, path: w.queue}, "127.0.0.1:8765", "", "ana")
	send := func(path string, form url.Values) (int, string) {
		form.Set("csrf", p.csrf)
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8765"+path, strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		rec := httptest.NewRecorder()
		p.ServeHTTP(rec, r)
		return rec.Code, rec.Body.String()
	}
	r := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8765/", nil)
	rec := httptest.NewRecorder()
	p.ServeHTTP(rec, r)
	if body := rec.Body.String(); rec.Code != http.StatusOK || strings.Count(body, `class="call"`) != 3 || strings.Contains(body, `value="once"`) ||
		!strings.Contains(body, "Bash(git push origin main)") {
		t.Fatalf("the page: %d\n%s\nwant three calls, no once button, the call's rule", rec.Code, body)
	}
	for _, form := range []url.Values{
		{"id": {"1"}, "mode": {"once"}},
		{"id": {"1"}, "mode": {"always"}, "rule": {"Bash(git push:*)"}},
	} {
		if code, body := send("/approve", form); code != http.StatusConflict || !strings.Contains(body, "not done") {
			t.Errorf("%v: %d; want it refused", form, code)
		}
	}
	if _, err := os.Stat(w.local); !os.IsNotExist(err) {
		t.Fatalf("a refused answer wrote the local settings: %v", err)
	}
	if code, body := send("/approve", url.Values{"id": {"1"}, "mode": {"always"}, "rule": {"Bash(git push origin main)"}}); code != http.StatusOK || !strings.Contains(body, "approved call 1 always") {
		t.Fatalf("approve always: %d\n%s", code, body)
	}
	if code, _ := send("/deny", url.Values{"id": {"3"}, "reason": {"no curl"}}); code != http.StatusOK {
		t.Fatalf("deny: %d", code)
	}
	out, _, _ := w.run(t, "queue", "list", w.queue)
	if !strings.Contains(out, "approved: allowed by Bash(git push origin main)") || !strings.Contains(out, "rejected: no curl") || strings.Count(out, "waiting") != 1 {
		t.Errorf("the queue after the page's answers:\n%s", out)
	}
	if data, err := os.ReadFile(w.local); err != nil || !strings.Contains(string(data), "Bash(git push origin main)") {
		t.Errorf("the local settings: %s, %v; want the rule", data, err)
	}
}
