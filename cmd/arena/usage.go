package main

import (
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// A command's --help lists its flags in groups: its own (a protocol's,
// its request's), the settings it takes, and the front end's; then its
// exit codes.

// flagGroup is the annotation that puts a flag in a group of the help.
const flagGroup = "arena-group"

// The groups after a command's own flags, in order.
const (
	groupSettings = "Settings:"
	groupOutput   = "Running it:"
)

// inGroup puts the flags of fs named names in group.
func inGroup(fs *pflag.FlagSet, group string, names ...string) {
	for _, n := range names {
		if fs.Lookup(n) != nil {
			_ = fs.SetAnnotation(n, flagGroup, []string{group})
		}
	}
}

// flagGroups writes fs's flags as the help lists them: a command's own
// under "Flags:", then each group under its heading.
func flagGroups(fs *pflag.FlagSet) string {
	groups := map[string]*pflag.FlagSet{}
	order := []string{"Flags:", groupSettings, groupOutput}
	for _, g := range order {
		groups[g] = pflag.NewFlagSet(g, pflag.ContinueOnError)
	}
	fs.VisitAll(func(f *pflag.Flag) {
		g := "Flags:"
		if a := f.Annotations[flagGroup]; len(a) == 1 {
			g = a[0]
		}
		groups[g].AddFlag(f)
	})
	var b strings.Builder
	for _, g := range order {
		if !groups[g].HasAvailableFlags() {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(g + "\n" + strings.TrimRight(groups[g].FlagUsages(), " \n"))
	}
	return b.String()
}

// addFlagGroups gives cobra's templates flagGroups, once: its functions
// are a map of the package's, and apps are built at once in the tests.
var addFlagGroups = sync.OnceFunc(func() { cobra.AddTemplateFunc("flagGroups", flagGroups) })

// usageTemplate is cobra's, with the flags in groups, ended by tail.
func usageTemplate(tail string) string {
	addFlagGroups()
	t := (&cobra.Command{}).UsageTemplate()
	t = strings.Replace(t, "Flags:\n{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}", "{{flagGroups .LocalFlags}}", 1)
	return t + "\n" + tail + "\n"
}
