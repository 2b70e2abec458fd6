package cases

import "testing"

func TestPlaceholdersNameEveryScratchPath(t *testing.T) {
	tree := Tree{Root: "/tmp/r", Home: "/tmp/r/home", Project: "/tmp/r/project", Extra: "/tmp/r/extra"}
	got := tree.Placeholders("touch in '/tmp/r/x.txt' ('/tmp/r/project'), /tmp/r/home/.bashrc and /tmp/r/extra/x.txt")
	want := "touch in '@ROOT@/x.txt' ('@PROJECT@'), @HOME@/.bashrc and @EXTRA@/x.txt"
	if got != want {
		t.Errorf("Placeholders = %q, want %q", got, want)
	}
	if back := tree.Expand("@PROJECT@/a.txt"); back != "/tmp/r/project/a.txt" {
		t.Errorf("Expand = %q", back)
	}
}
