package bench

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy/guard"
)

// CorpusModule is a module of generated Go clients, which [Corpus]
// downloads into the module cache when the cache holds less Go source than
// asked for: over 250 MB of it, so that any machine reaches the corpus size
// the README reports.
const CorpusModule = "google.golang.org/api@v0.312.0"

// Corpus returns the non-test Go sources in the module cache, file by file
// in the order of their paths, up to limit bytes in all, and their size: a
// clean corpus, code that no one would call a secret, on which a finding is
// a false positive. When the cache holds less than limit it first downloads
// [CorpusModule].
func Corpus(limit int) ([]string, int, error) {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return nil, 0, fmt.Errorf("bench: go env GOMODCACHE: %w", err)
	}
	root := strings.TrimSpace(string(out))
	files, size, err := readGoSources(root, limit)
	if err != nil || size >= limit {
		return files, size, err
	}
	download := exec.Command("go", "mod", "download", CorpusModule)
	download.Dir = os.TempDir()
	download.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if msg, err := download.CombinedOutput(); err != nil {
		return nil, 0, fmt.Errorf("bench: go mod download %s: %v: %s", CorpusModule, err, msg)
	}
	return readGoSources(root, limit)
}

// notClean are the modules of the cache that are no clean corpus: gitleaks
// keeps the tokens its rules are tested with in its rule sources, which are
// not test files.
var notClean = []string{"github.com/zricethezav/gitleaks"}

// readGoSources reads the .go files under root that are not tests, nor in
// the download cache, a testdata directory or a module of notClean, up to
// limit bytes.
func readGoSources(root string, limit int) ([]string, int, error) {
	var files []string
	size := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == filepath.Join(root, "cache") || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			for _, m := range notClean {
				if rel, _ := filepath.Rel(root, path); strings.HasPrefix(filepath.ToSlash(rel), m) {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if size+len(b) > limit {
			return filepath.SkipAll
		}
		files = append(files, string(b))
		size += len(b)
		return nil
	})
	return files, size, err
}

// Findings counts the secrets g, a guard.Redact, replaces in texts, each
// read as an input's instructions.
func Findings(g guard.Guard, texts []string) (int, error) {
	n := 0
	for _, text := range texts {
		v, err := g.Check(context.Background(), guard.Input{Instructions: text})
		if err != nil {
			return 0, err
		}
		n += redactedCount(v.Reason)
	}
	return n, nil
}

// redactedCount reads N off Redact's reason "redacted N secrets: …", 0 for
// none.
func redactedCount(reason string) int {
	fields := strings.Fields(reason)
	if len(fields) < 2 || fields[0] != "redacted" {
		return 0
	}
	n, _ := strconv.Atoi(fields[1])
	return n
}
