// Package resume is arena resume's policy: what a run's log may start
// again, checked before anything runs.
//
// A log is data, never a command line. It records the run's typed
// request (engine.Invocation), which is read into the protocol's own
// Request type and can hold nothing else: no other command, no hook, no
// configuration file. What it names is checked against what the run
// recorded (Check: a file it did not attach, another specification),
// shown before it runs (Plan: the files it reads, where it writes, the
// seats), and run only when the log was signed by this user's arena
// (runlog.Signed), or the person says so. The run goes on with the
// settings of the person who resumes it.
package resume

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
)

// Values are a request's fields by name (their JSON names), each as the
// strings it holds: a list's items, a string, a number or "true"; a field
// left empty holds none.
func Values(req engine.Request) map[string][]string {
	out := map[string][]string{}
	for _, f := range engine.FieldsOf(req) {
		if !f.Given() {
			continue
		}
		if list, ok := f.Target().(*[]string); ok {
			out[f.Name] = slices.Clone(*list)
			continue
		}
		out[f.Name] = []string{f.String()}
	}
	return out
}

// Check says what in a logged request does not match the run its log
// records: a file the run did not attach, another specification, a
// directory that is not one here.
func Check(rule engine.ResumeRule, st engine.DebateStarted, req engine.Request) []string {
	var why []string
	values := Values(req)
	// What the run attached is in its start event: a file the request
	// names that the run did not attach was put there by a hand.
	attached := map[string]bool{}
	for _, c := range st.Context {
		attached[c.Name] = true
	}
	for _, name := range rule.Attached {
		for _, v := range values[name] {
			if !attached[v] {
				why = append(why, fmt.Sprintf("%s %s: the run this log records attached no such file", name, trust.Text(v)))
			}
		}
	}
	if rule.First != "" {
		first := values[rule.First]
		if len(first) == 0 || len(st.Context) == 0 || st.Context[0].Name != first[0] {
			why = append(why, "the specification it names is not the one the run judged against")
		}
	}
	if st.Invocation == nil {
		return append(why, "the log does not record how the run was started")
	}
	dir := st.Invocation.Dir
	if !filepath.IsAbs(dir) {
		why = append(why, fmt.Sprintf("the directory it ran in (%q) is not an absolute path", trust.Text(dir)))
	} else if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		why = append(why, fmt.Sprintf("the directory it ran in, %s, is not a directory here", trust.Text(dir)))
	}
	return why
}
