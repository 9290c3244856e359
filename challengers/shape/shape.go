// Package shape names the reply a prompt asks for. Every prompt carries
// one tag line naming its reply shape ("opening", "compare.judge"), put
// there by the engine; the fake CLIs and the engine's scripted tests read
// the same tag to know what they are being asked, so there is one
// classifier, not two kept in step.
package shape

import "strings"

// marker starts the tag line.
const marker = "REPLY SHAPE: "

// Tag is the line a prompt carries to name its reply shape.
func Tag(name string) string { return marker + name }

// Of returns the shape a prompt names, or "" when it names none. The last
// tag wins: a repair request quotes the original prompt after its own text.
func Of(prompt string) string {
	i := strings.LastIndex(prompt, marker)
	if i < 0 {
		return ""
	}
	rest := prompt[i+len(marker):]
	if j := strings.IndexAny(rest, "\r\n"); j >= 0 {
		rest = rest[:j]
	}
	return strings.TrimSpace(rest)
}

// RepairLead opens a repair request: the request sent again when a reply
// could not be used.
const RepairLead = "Your previous reply to the request below could not be used"

// IsRepair reports whether a prompt is a repair request.
func IsRepair(prompt string) bool { return strings.HasPrefix(strings.TrimSpace(prompt), RepairLead) }
