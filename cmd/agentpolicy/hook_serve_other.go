//go:build !linux

package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// residentSupported: there is no resident process here, so hook install
// writes agentpolicy hook itself.
const residentSupported = false

// newHookServe is agentpolicy hook serve, which runs on Linux only:
// elsewhere agentpolicy-hook runs agentpolicy hook for every call.
func newHookServe() *cobra.Command {
	return &cobra.Command{
		Use:    "serve",
		Short:  "Answer agentpolicy-hook's calls from one resident process (Linux only)",
		Args:   cobra.NoArgs,
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("hook serve: the resident hook process runs on Linux only")
		},
	}
}
