package main

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ChristopherDavenport/agentpolicy/pgjournal"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/spf13/cobra"
)

// agentpolicy queue serve: a page over the queue, file or database, to
// answer the calls from. Plain HTML the server renders with html/template,
// which escapes everything it shows; no script runs on it, and its
// Content-Security-Policy forbids any.

// pendingCall is a queued call as the page shows it.
type pendingCall struct {
	ID                        string
	Tool, Input, AskedBy      string
	Reason, Session, Machine  string
	Suggested                 string
	Cut                       bool
	QueuedAt                  string
	OnceOffered, RuleEditable bool
}

// reviewQueue is a queue the page answers: a file queue or a database's.
type reviewQueue interface {
	pending(ctx context.Context) ([]pendingCall, error)
	approve(ctx context.Context, id string, once bool, rule, by string) error
	deny(ctx context.Context, id, by, reason string) error
}

func newQueueServe(flags *settingsFlags) *cobra.Command {
	var listen, tokenFile, by string
	cmd := &cobra.Command{
		Use:   "serve QUEUE",
		Short: "Serve a page to review the queue from: approve once, approve always, deny",
		Long: `serve shows the calls the queue holds (a file, or a postgres:// database) on a
web page: each call's tool input with secrets redacted, the rule that asked, the
session and the machine, with buttons to approve it once (a database queue),
approve it always with the rule it will write (editable), or deny it with a
reason. It listens on loopback unless --listen names another address, which
needs --token-file: a file holding the token a reviewer opens the page with
(http://HOST:PORT/?token=TOKEN). Forms carry a token of their own against
cross-site requests.`,
		Example: `  agentpolicy queue serve --listen 127.0.0.1:8765 postgres://agentpolicy@db.internal/agentpolicy
  agentpolicy queue serve --project . queue.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			token, err := serveToken(listen, tokenFile)
			if err != nil {
				return err
			}
			q, closeQ, err := openReviewQueue(cmd.Context(), flags, args[0])
			if err != nil {
				return err
			}
			defer closeQ()
			ln, err := net.Listen("tcp", listen)
			if err != nil {
				return err
			}
			srv := &http.Server{Handler: newPage(q, ln.Addr().String(), token, reviewer(by)), ReadHeaderTimeout: 10 * time.Second}
			fmt.Fprintf(cmd.OutOrStdout(), "serving the queue on http://%s/\n", ln.Addr())
			go func() {
				<-cmd.Context().Done()
				srv.Close()
			}()
			if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:8765", "the address to listen on; any but loopback needs --token-file")
	cmd.Flags().StringVar(&tokenFile, "token-file", "", "a file holding the token the page asks for (required off loopback)")
	cmd.Flags().StringVar(&by, "by", "", "the reviewer's name the answers carry (default the user running the command)")
	return cmd
}

// serveToken reads the --token-file, which an address off loopback needs.
func serveToken(listen, tokenFile string) (string, error) {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return "", fmt.Errorf("--listen %q: %v", listen, err)
	}
	ip := net.ParseIP(host)
	loopback := host == "localhost" || ip != nil && ip.IsLoopback()
	if tokenFile == "" {
		if !loopback {
			return "", fmt.Errorf("--listen %s is not a loopback address: give --token-file, so only a reviewer with the token can answer", listen)
		}
		return "", nil
	}
	data, err := os.ReadFile(tokenFile)
	if err != nil {
		return "", err
	}
	token := strings.TrimSpace(string(data))
	if len(token) < 16 {
		return "", fmt.Errorf("%s: the token must be at least 16 characters", tokenFile)
	}
	return token, nil
}

// openReviewQueue opens the queue the page answers.
func openReviewQueue(ctx context.Context, flags *settingsFlags, queue string) (reviewQueue, func(), error) {
	if isDatabaseURL(queue) {
		db, err := pgjournal.Open(ctx, queue, pgjournal.Options{Pool: true, Migrate: true})
		if err != nil {
			return nil, nil, err
		}
		return dbQueue{db}, db.Close, nil
	}
	return fileQueue{flags: flags, path: queue}, func() {}, nil
}

// page is the handler of the review page.
type page struct {
	q     reviewQueue
	host  string // the address the page is served on, which a request must name
	token string // the access token, "" on loopback without --token-file
	csrf  string // the token every form carries
	by    string
}

func newPage(q reviewQueue, host, token, by string) *page {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return &page{q: q, host: host, token: token, csrf: hex.EncodeToString(b), by: by}
}

// tokenCookie carries the access token once a reviewer opened the page
// with it.
const tokenCookie = "agentpolicy_token"

func (p *page) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	if !p.hostAllowed(r.Host) {
		http.Error(w, "agentpolicy: the page answers only at "+p.host, http.StatusMisdirectedRequest)
		return
	}
	if p.token != "" && !p.authorized(w, r) {
		http.Error(w, "agentpolicy: open the page with ?token= and the token of --token-file", http.StatusUnauthorized)
		return
	}
	switch {
	case r.URL.Path == "/" && r.Method == http.MethodGet:
		p.list(w, r, "")
	case (r.URL.Path == "/approve" || r.URL.Path == "/deny") && r.Method == http.MethodPost:
		p.answer(w, r)
	default:
		http.NotFound(w, r)
	}
}

// hostAllowed keeps a page on loopback from answering a name that a
// hostile page's DNS points at 127.0.0.1.
func (p *page) hostAllowed(host string) bool {
	if host == p.host {
		return true
	}
	_, port, _ := net.SplitHostPort(p.host)
	return host == "localhost:"+port || p.token != ""
}

// authorized reports whether the request carries the access token, in its
// cookie or as ?token=, which sets the cookie.
func (p *page) authorized(w http.ResponseWriter, r *http.Request) bool {
	if c, err := r.Cookie(tokenCookie); err == nil && equal(c.Value, p.token) {
		return true
	}
	if t := r.URL.Query().Get("token"); t != "" && equal(t, p.token) {
		http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: p.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		return true
	}
	return false
}

func equal(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// answer handles a form: approve once, approve always, deny.
func (p *page) answer(w http.ResponseWriter, r *http.Request) {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		http.Error(w, "agentpolicy: a cross-site request", http.StatusForbidden)
		return
	}
	if err := r.ParseForm(); err != nil || !equal(r.PostForm.Get("csrf"), p.csrf) {
		http.Error(w, "agentpolicy: the form is not this page's: reload it", http.StatusForbidden)
		return
	}
	ctx, id := r.Context(), r.PostForm.Get("id")
	var err error
	var done string
	switch {
	case r.URL.Path == "/deny":
		reason := strings.TrimSpace(r.PostForm.Get("reason"))
		if reason == "" {
			reason = "denied by a reviewer"
		}
		err, done = p.q.deny(ctx, id, p.by, reason), "denied call "+id+": "+reason
	case r.PostForm.Get("mode") == "once":
		err, done = p.q.approve(ctx, id, true, r.PostForm.Get("rule"), p.by), "approved call "+id+" once"
	default:
		rule := strings.TrimSpace(r.PostForm.Get("rule"))
		err, done = p.q.approve(ctx, id, false, rule, p.by), "approved call "+id+" always: "+rule
	}
	if err != nil {
		w.WriteHeader(http.StatusConflict)
		p.list(w, r, "not done: "+err.Error())
		return
	}
	p.list(w, r, done)
}

// list renders the page: the message of the last answer, and the calls
// waiting.
func (p *page) list(w http.ResponseWriter, r *http.Request, message string) {
	calls, err := p.q.pending(r.Context())
	if err != nil {
		message = "agentpolicy: cannot read the queue: " + err.Error()
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	_ = pageTemplate().Execute(w, struct {
		Message string
		Calls   []pendingCall
		CSRF    string
	}{message, calls, p.csrf})
}

// pageTemplate is the page, parsed on the first request: every hook call
// is a process of this binary, which would otherwise parse it at every
// start.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Parse(pageText))
})

// pageText is the page's template.
const pageText = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>agentpolicy: calls waiting for a person</title>
<style>body{font-family:sans-serif;margin:2em}pre{white-space:pre-wrap;background:#f4f4f4;padding:.5em}
.call{border:1px solid #ccc;padding:1em;margin:1em 0}form{display:inline-block;margin-right:1em}
.msg{padding:.5em;background:#eef}</style></head><body>
<h1>Calls waiting for a person</h1>
{{if .Message}}<p class="msg" id="message">{{.Message}}</p>{{end}}
{{if not .Calls}}<p id="empty">No call waits for an answer.</p>{{end}}
{{range .Calls}}<div class="call" id="call-{{.ID}}">
<h2>{{.ID}}: {{.Tool}}</h2>
<p>Session {{.Session}}{{if .Machine}} on {{.Machine}}{{end}}{{if .QueuedAt}}, queued {{.QueuedAt}}{{end}}</p>
<p>Asked by {{.AskedBy}}: {{.Reason}}</p>
<pre class="input">{{.Input}}</pre>{{if .Cut}}<p>The input is cut: only its head is kept.</p>{{end}}
{{if .OnceOffered}}<form method="post" action="/approve"><input type="hidden" name="csrf" value="{{$.CSRF}}">
<input type="hidden" name="id" value="{{.ID}}"><input type="hidden" name="mode" value="once">
<input type="hidden" name="rule" value="{{.Suggested}}">
<button type="submit" name="once">Approve once</button></form>{{end}}
<form method="post" action="/approve"><input type="hidden" name="csrf" value="{{$.CSRF}}">
<input type="hidden" name="id" value="{{.ID}}"><input type="hidden" name="mode" value="always">
{{if .RuleEditable}}<label>Rule <input type="text" name="rule" size="40" value="{{.Suggested}}"></label>
{{else}}<input type="hidden" name="rule" value="{{.Suggested}}">Rule <code>{{.Suggested}}</code>{{end}}
<button type="submit" name="always">Approve always</button></form>
<form method="post" action="/deny"><input type="hidden" name="csrf" value="{{$.CSRF}}">
<input type="hidden" name="id" value="{{.ID}}">
<label>Reason <input type="text" name="reason" size="30"></label>
<button type="submit" name="deny">Deny</button></form>
</div>{{end}}
</body></html>
`

// dbQueue is a database's queue on the page.
type dbQueue struct{ db *pgjournal.DB }

func (q dbQueue) pending(ctx context.Context) ([]pendingCall, error) {
	calls, err := q.db.List(ctx, false)
	out := make([]pendingCall, len(calls))
	for i, c := range calls {
		out[i] = pendingCall{ID: strconv.FormatInt(c.ID, 10), Tool: c.Verdict.Tool, Input: c.Verdict.Args,
			AskedBy: askedBy(c.Verdict), Reason: c.Verdict.Reason, Session: c.Session, Machine: c.Machine,
			Suggested: c.Suggested, Cut: c.Verdict.ArgsBytes != 0, QueuedAt: c.QueuedAt.UTC().Format(time.DateTime + "Z"),
			OnceOffered: c.Suggested != "", RuleEditable: true}
	}
	return out, err
}

func (q dbQueue) approve(ctx context.Context, id string, once bool, rule, by string) error {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return fmt.Errorf("%q is not a queued call's ID", id)
	}
	c, err := q.db.Show(ctx, n)
	if err != nil {
		return err
	}
	a := dbApproval{once: once, rule: rule, scope: "project", by: by}
	approval, err := a.approval(c)
	if err != nil {
		return err
	}
	return q.db.Approve(ctx, n, approval)
}

func (q dbQueue) deny(ctx context.Context, id, by, reason string) error {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return fmt.Errorf("%q is not a queued call's ID", id)
	}
	return q.db.Deny(ctx, n, by, reason)
}

// fileQueue is a file queue on the page; its answers are queue approve's
// and queue reject's, written into the project's local settings.
type fileQueue struct {
	flags *settingsFlags
	path  string
}

func (q fileQueue) pending(ctx context.Context) ([]pendingCall, error) {
	calls, err := readQueue(q.path)
	if err != nil {
		return nil, err
	}
	p, err := q.flags.load()
	if err != nil {
		return nil, err
	}
	var out []pendingCall
	for _, c := range calls {
		if c.answer != nil {
			continue
		}
		suggested := ""
		if rule, err := p.callRule(ctx, c.v); err == nil {
			suggested = rule.String()
		}
		out = append(out, pendingCall{ID: strconv.Itoa(c.n), Tool: c.v.Tool, Input: c.v.Args, AskedBy: askedBy(c.v),
			Reason: c.v.Reason, Session: c.v.RunID, Suggested: suggested, Cut: c.v.ArgsBytes != 0})
	}
	return out, nil
}

func (q fileQueue) approve(ctx context.Context, id string, once bool, rule, _ string) error {
	if once {
		return errors.New("a file queue has no one-time approvals: approve always, or queue in a database")
	}
	p, c, err := loadQueued(q.flags, []string{q.path, id})
	if err != nil {
		return err
	}
	if want, err := p.callRule(ctx, c.v); err == nil && rule != "" && rule != want.String() {
		return fmt.Errorf("a file queue writes the call's own rule, %s, into the local settings; edit the settings for another", want)
	}
	suggested, err := p.approve(ctx, c)
	if err != nil {
		return err
	}
	return answerQueued(q.path, c, agentturn.Allow, "approved: allowed by "+suggested.String())
}

func (q fileQueue) deny(_ context.Context, id, _, reason string) error {
	_, c, err := loadQueued(q.flags, []string{q.path, id})
	if err != nil {
		return err
	}
	return answerQueued(q.path, c, agentturn.Block, "rejected: "+reason)
}
