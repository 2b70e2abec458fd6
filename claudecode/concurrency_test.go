package claudecode

import (
	"fmt"
	"sync"
	"testing"
)

// TestConcurrentDecisions decides different paths from many goroutines on
// one engine: the matcher's cache of the last path read and of compiled
// specifiers must never hand one call another's answer.
func TestConcurrentDecisions(t *testing.T) {
	w := newWorld(t)
	w.write(w.scopeFile(ScopeProject), lists{Allow: []string{"Read(src/**)"}, Deny: []string{"Read(.env)", "Read(//etc/**)"}}.file())
	eng := w.engine(w.load())
	paths := map[string]string{
		w.cwd + "/src/a.go":    "allow",
		w.cwd + "/app/.env":    "deny",
		"/etc/passwd":          "deny",
		"/opt/x/README.md":     "ask",
		w.cwd + "/src/../.env": "deny",
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				for p, want := range paths {
					data := []byte(fmt.Sprintf(`{"file_path":%q}`, p))
					if got := outcome(wouldRaw(t, eng, "Read", data)); got != want {
						errs <- fmt.Sprintf("goroutine %d, round %d: %s gave %s, want %s", g, i, p, got, want)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
