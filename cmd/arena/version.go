package main

import (
	"runtime/debug"
	"strings"
)

// version is stamped at build time with -ldflags "-X main.version=v1.2.3";
// when it is not, versionText reads what was built from the binary's
// build information instead.
var version = ""

// versionText is what arena --version prints after "arena version ": the
// stamped version, else the module's version as `go install
// …/cmd/arena@v1.2.3` records it, else "dev"; then the commit it was
// built from and whether the tree had changes, where the build recorded
// them (go build inside a git checkout does, unless -buildvcs=false).
//
//	v1.2.3
//	v0.0.0-20250314093000-0123456789ab (commit 0123456789ab, 2025-03-14T09:30:00Z)
//	dev (commit 0123456789ab, modified)
func versionText(stamped string, info *debug.BuildInfo) string {
	v := stamped
	if v == "" && info != nil && info.Main.Version != "" && info.Main.Version != "(devel)" {
		v = info.Main.Version
	}
	if v == "" {
		v = "dev"
	}
	if info == nil {
		return v
	}
	var rev, at string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return v
	}
	details := []string{"commit " + rev[:min(len(rev), 12)]}
	if modified {
		details = append(details, "modified")
	} else if at != "" {
		details = append(details, at)
	}
	return v + " (" + strings.Join(details, ", ") + ")"
}

// buildVersion is this binary's versionText.
func buildVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = nil
	}
	return versionText(version, info)
}
