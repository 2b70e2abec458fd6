// Package resident carries one hook call from the agentpolicy-hook client
// to a resident agentpolicy process over a Unix socket, so that an agent's
// hook call costs the start of a small program, not the start of the
// whole command with every reader it links.
//
// The client sends what its own process would have given agentpolicy
// hook: its arguments, environment, working directory, umask and standard
// input. The resident process runs the same hook code on them and sends
// back the exit status and what it printed. Whenever it cannot (it was
// built from another binary than the one the client would run, or the
// call is not a plain hook call), it refuses, and the client runs the
// binary itself: the resident process is only ever a faster way to the
// same answer.
package resident

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// magic opens every request and response; its number changes with the
// layout of either.
const magic = "agentpolicy-hook/1\n"

// MaxStdin is the most standard input a request carries: one byte more
// than the largest event the hook reads, so an event too large is refused
// by the hook itself, as it is without the resident process.
const MaxStdin = 64<<20 + 1

// maxField bounds every other field, maxList the number of arguments and
// of environment variables, and maxHead all the fields of a request but
// its standard input together, so a request cannot ask the resident
// process for unbounded memory. Linux gives a process's arguments and
// environment 2 MiB unless its stack limit is raised; a client whose
// request is refused runs the binary itself.
const (
	maxField = 1 << 20
	maxList  = 1 << 14
	maxHead  = 4 << 20
)

// Request is one hook call, as the client's process would have made it.
type Request struct {
	// Binary is the Identity of the agentpolicy binary the client would
	// run: a resident process built from another refuses the call.
	Binary string
	// Dir is the working directory.
	Dir string
	// Umask is the process's file mode mask.
	Umask uint32
	// Args are the arguments after "agentpolicy hook".
	Args []string
	// Env is the environment, as os.Environ gives it.
	Env []string
	// Stdin is standard input, at most MaxStdin bytes of it.
	Stdin []byte
}

// Status is how the resident process dealt with a request.
type Status byte

const (
	// Answered: the call ran; Code, Stdout and Stderr are its result.
	Answered Status = 1
	// Refused: the call did not run, for Reason; the client runs it.
	Refused Status = 2
)

// Response is the resident process's answer to a Request.
type Response struct {
	Status Status
	// Code is the hook's exit status.
	Code int
	// Stdout and Stderr are what the hook printed.
	Stdout, Stderr []byte
	// Reason is why a request was refused.
	Reason string
}

// ErrMalformed is a request or response that does not follow the layout.
var ErrMalformed = errors.New("resident: malformed message")

// AppendRequest appends the encoding of r to b.
func AppendRequest(b []byte, r Request) []byte {
	b = append(b, magic...)
	b = appendBytes(b, []byte(r.Binary))
	b = appendBytes(b, []byte(r.Dir))
	b = binary.AppendUvarint(b, uint64(r.Umask))
	b = appendList(b, r.Args)
	b = appendList(b, r.Env)
	return appendBytes(b, r.Stdin)
}

// ReadRequest reads one request.
func ReadRequest(from io.Reader) (Request, error) {
	r := bufio.NewReader(from)
	var req Request
	if err := readMagic(r); err != nil {
		return req, err
	}
	head := uint64(maxHead)
	var umask uint64
	var err error
	if req.Binary, err = readString(r, &head); err != nil {
		return req, err
	}
	if req.Dir, err = readString(r, &head); err != nil {
		return req, err
	}
	if umask, err = binary.ReadUvarint(r); err != nil || umask > 0o777 {
		return req, ErrMalformed
	}
	req.Umask = uint32(umask)
	if req.Args, err = readList(r, &head); err != nil {
		return req, err
	}
	if req.Env, err = readList(r, &head); err != nil {
		return req, err
	}
	req.Stdin, err = readBytes(r, MaxStdin)
	return req, err
}

// AppendResponse appends the encoding of r to b.
func AppendResponse(b []byte, r Response) []byte {
	b = append(b, magic...)
	b = append(b, byte(r.Status))
	b = binary.AppendUvarint(b, uint64(r.Code))
	b = appendBytes(b, r.Stdout)
	b = appendBytes(b, r.Stderr)
	return appendBytes(b, []byte(r.Reason))
}

// ReadResponse reads one response.
func ReadResponse(r *bufio.Reader) (Response, error) {
	var resp Response
	if err := readMagic(r); err != nil {
		return resp, err
	}
	status, err := r.ReadByte()
	if err != nil || (Status(status) != Answered && Status(status) != Refused) {
		return resp, ErrMalformed
	}
	resp.Status = Status(status)
	code, err := binary.ReadUvarint(r)
	if err != nil || code > 255 {
		return resp, ErrMalformed
	}
	resp.Code = int(code)
	if resp.Stdout, err = readBytes(r, MaxStdin); err != nil {
		return resp, err
	}
	if resp.Stderr, err = readBytes(r, MaxStdin); err != nil {
		return resp, err
	}
	head := uint64(maxField)
	resp.Reason, err = readString(r, &head)
	return resp, err
}

func appendBytes(b, field []byte) []byte {
	return append(binary.AppendUvarint(b, uint64(len(field))), field...)
}

func appendList(b []byte, list []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(list)))
	for _, s := range list {
		b = appendBytes(b, []byte(s))
	}
	return b
}

func readMagic(r *bufio.Reader) error {
	head := make([]byte, len(magic))
	if _, err := io.ReadFull(r, head); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if string(head) != magic {
		return fmt.Errorf("%w: it does not begin %q", ErrMalformed, magic)
	}
	return nil
}

func readBytes(r *bufio.Reader, limit uint64) ([]byte, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil || n > limit {
		return nil, ErrMalformed
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return b, nil
}

// readString reads a field of at most maxField bytes, which it takes from
// what is left of head.
func readString(r *bufio.Reader, head *uint64) (string, error) {
	b, err := readBytes(r, min(maxField, *head))
	*head -= uint64(len(b))
	return string(b), err
}

func readList(r *bufio.Reader, head *uint64) ([]string, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil || n > maxList {
		return nil, ErrMalformed
	}
	list := make([]string, n)
	for i := range list {
		if list[i], err = readString(r, head); err != nil {
			return nil, err
		}
	}
	return list, nil
}
