package main

import (
	"fmt"

	"github.com/ChristopherDavenport/agentpolicy/internal/corpus"
	"github.com/spf13/cobra"
)

func newCorpus() *cobra.Command {
	var verbose bool
	cmd := &cobra.Command{
		Use:   "corpus DIR",
		Short: "Run a conformance corpus against this implementation",
		Long: `corpus runs the conformance corpus in DIR (grammar.json, matchers.json and
decisions.json, in the format of the RFC's corpus section) against this
implementation and reports each case that fails, or every case with -v. It is
for people writing a settings editor or a second implementation: their cases
run here exactly as the project's own do. It exits 1 when a case fails.`,
		Example: `  agentpolicy corpus testdata/policy
  agentpolicy corpus -v my-cases/`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			results, err := corpus.Run(args[0])
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			failed := 0
			for _, r := range results {
				switch {
				case len(r.Failures) > 0:
					failed++
					fmt.Fprintf(w, "FAIL %s: %s\n", r.File, r.Case)
					for _, f := range r.Failures {
						fmt.Fprintf(w, "     %s\n", f)
					}
				case verbose:
					fmt.Fprintf(w, "ok   %s: %s\n", r.File, r.Case)
				}
			}
			fmt.Fprintf(w, "%d passed, %d failed\n", len(results)-failed, failed)
			if failed > 0 {
				return errFailed
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "list the cases that pass too")
	return cmd
}
