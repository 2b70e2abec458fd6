package resident

import (
	"bufio"
	"bytes"
	"errors"
	"reflect"
	"testing"
)

func TestRequestRoundTrip(t *testing.T) {
	want := Request{
		Binary: "fd01:1b2c:2750493:1733370000000000000", Dir: "/home/u/project", Umask: 0o022,
		Args:  []string{"--policy", "/etc/team policy.json", "--agent", "codex", ""},
		Env:   []string{"HOME=/home/u", "EMPTY=", "A=b=c"},
		Stdin: []byte(`{"hook_event_name":"PreToolUse"}` + "\x00\n"),
	}
	got, err := ReadRequest(bytes.NewReader(AppendRequest(nil, want)))
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip: %+v, %v; want %+v", got, err, want)
	}
	// Empty lists and input come back empty.
	got, err = ReadRequest(bytes.NewReader(AppendRequest(nil, Request{})))
	if err != nil || got.Binary != "" || len(got.Args) != 0 || len(got.Env) != 0 || len(got.Stdin) != 0 {
		t.Fatalf("empty round trip: %+v, %v", got, err)
	}
}

func TestResponseRoundTrip(t *testing.T) {
	for _, want := range []Response{
		{Status: Answered, Code: 2, Stdout: []byte("{}\n"), Stderr: []byte("agentpolicy: hook: no event\n")},
		{Status: Refused, Reason: "the agentpolicy binary was replaced", Stdout: []byte{}, Stderr: []byte{}},
	} {
		got, err := ReadResponse(bufio.NewReader(bytes.NewReader(AppendResponse(nil, want))))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("round trip: %+v, %v; want %+v", got, err, want)
		}
	}
}

// Every message cut short, or with a field longer than its bound, is
// refused as malformed, never read as a shorter one.
func TestMalformed(t *testing.T) {
	req := AppendRequest(nil, Request{Binary: "b", Dir: "/", Args: []string{"--agent", "codex"}, Env: []string{"A=1"}, Stdin: []byte("{}")})
	for n := range len(req) {
		if _, err := ReadRequest(bytes.NewReader(req[:n])); !errors.Is(err, ErrMalformed) {
			t.Errorf("a request cut to %d of %d bytes: %v", n, len(req), err)
		}
	}
	resp := AppendResponse(nil, Response{Status: Answered, Stdout: []byte("{}")})
	for n := range len(resp) {
		if _, err := ReadResponse(bufio.NewReader(bytes.NewReader(resp[:n]))); !errors.Is(err, ErrMalformed) {
			t.Errorf("a response cut to %d of %d bytes: %v", n, len(resp), err)
		}
	}
	// Fields of their greatest size, more of them than a request holds.
	huge := make([]string, maxHead/maxField+1)
	for i := range huge {
		huge[i] = string(make([]byte, maxField))
	}
	if _, err := ReadRequest(bytes.NewReader(AppendRequest(nil, Request{Env: huge}))); !errors.Is(err, ErrMalformed) {
		t.Errorf("a request of %d MiB of environment: %v", len(huge), err)
	}
	if _, err := ReadRequest(bytes.NewReader(AppendRequest(nil, Request{Env: huge[1:]}))); err != nil {
		t.Errorf("a request of %d MiB of environment: %v", len(huge)-1, err)
	}
	for name, msg := range map[string][]byte{
		"another magic":   append([]byte("agentpolicy-hook/0\n"), req[len(magic):]...),
		"umask past 0777": append([]byte(magic+"\x00\x00"), 0x80, 0x10),
		"a huge field":    append([]byte(magic), 0xff, 0xff, 0xff, 0xff, 0x0f),
		"a huge list":     append([]byte(magic+"\x00\x00\x00"), 0xff, 0xff, 0xff, 0x0f),
	} {
		if _, err := ReadRequest(bytes.NewReader(msg)); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v", name, err)
		}
	}
	for name, msg := range map[string][]byte{
		"an unknown status": []byte(magic + "\x03\x00"),
		"a code past 255":   append([]byte(magic+"\x01"), 0x80, 0x02),
	} {
		if _, err := ReadResponse(bufio.NewReader(bytes.NewReader(msg))); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func FuzzReadRequest(f *testing.F) {
	f.Add(AppendRequest(nil, Request{Binary: "b", Dir: "/", Args: []string{"-h"}, Env: []string{"A=1"}, Stdin: []byte("{}")}))
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := ReadRequest(bytes.NewReader(data))
		if err != nil {
			return
		}
		// What was read reads back the same once encoded again.
		again, err := ReadRequest(bytes.NewReader(AppendRequest(nil, req)))
		if err != nil || !reflect.DeepEqual(again, req) {
			t.Fatalf("read %+v from %q, which reads back as %+v, %v", req, data, again, err)
		}
	})
}
