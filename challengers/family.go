package challengers

import (
	"path/filepath"
	"strings"
)

// A family is the vendor whose model an agent runs: two seats of one
// family are not independent judges (a vendor's models share their
// training, and what they prefer), whatever their names and however
// they are reached. Claude through OpenRouter is as much Anthropic's as
// the claude CLI.

// cliFamilies are the families of the CLIs arena knows, by the name of
// the program (agy is Google's Antigravity CLI).
var cliFamilies = map[string]string{
	"claude": "anthropic",
	"gemini": "google",
	"agy":    "google",
	"codex":  "openai",
	"qwen":   "alibaba",
}

// vendorFamilies are the families of the vendor prefixes model ids carry
// on routers (OpenRouter's "anthropic/claude-sonnet-4.5",
// "meta-llama/llama-3.3-70b-instruct").
var vendorFamilies = map[string]string{
	"anthropic":  "anthropic",
	"google":     "google",
	"openai":     "openai",
	"meta-llama": "meta",
	"meta":       "meta",
	"qwen":       "alibaba",
	"alibaba":    "alibaba",
	"mistralai":  "mistral",
	"mistral":    "mistral",
	"deepseek":   "deepseek",
	"x-ai":       "xai",
	"xai":        "xai",
	"microsoft":  "microsoft",
}

// modelPrefixes are the families of bare model ids (an Ollama or a
// llama.cpp server's "llama3.2", OpenAI's "gpt-4o"), by how the id
// starts.
var modelPrefixes = []struct{ prefix, family string }{
	{"claude", "anthropic"},
	{"gpt", "openai"}, {"chatgpt", "openai"}, {"o1", "openai"}, {"o3", "openai"}, {"o4", "openai"}, {"codex", "openai"},
	{"gemini", "google"}, {"gemma", "google"},
	{"llama", "meta"}, {"codellama", "meta"},
	{"qwen", "alibaba"}, {"qwq", "alibaba"},
	{"mistral", "mistral"}, {"mixtral", "mistral"}, {"codestral", "mistral"}, {"devstral", "mistral"}, {"magistral", "mistral"},
	{"deepseek", "deepseek"},
	{"grok", "xai"},
	{"phi", "microsoft"},
}

// Family is the vendor family of the agent's model: the config's
// family:, else, for an API agent, what its model id says, else its CLI's.
// An agent whose CLI arena does not know is a family of its own, its
// name: one program (ollama) can run any vendor's model, so sharing it
// says nothing, and family: says better.
func Family(a Agent) string {
	switch {
	case a.Family != "":
		return strings.ToLower(strings.TrimSpace(a.Family))
	case a.API != "":
		return ModelFamily(a.Model)
	}
	exe := filepath.Base(a.Executable())
	if f, ok := cliFamilies[exe]; ok {
		return f
	}
	return strings.ToLower(a.Name)
}

// ModelFamily reads a vendor family from a model id: its vendor prefix
// ("anthropic/…"), else how its name starts ("llama3.2", "gpt-4o"). An
// id it cannot read is a family of its own (its vendor prefix, or the
// id), so that two unknown models are never taken for one vendor's.
func ModelFamily(model string) string {
	id := strings.ToLower(strings.TrimSpace(model))
	vendor, name, routed := strings.Cut(id, "/")
	if routed {
		if f, ok := vendorFamilies[vendor]; ok {
			return f
		}
	} else {
		name = id
	}
	for _, p := range modelPrefixes {
		if strings.HasPrefix(name, p.prefix) {
			return p.family
		}
	}
	if routed {
		return vendor
	}
	return id
}

// FamilySource says where Family read an agent's family from.
func FamilySource(a Agent) string {
	switch {
	case a.Family != "":
		return "config"
	case a.IsAPI():
		return "from the model id"
	}
	if _, ok := cliFamilies[filepath.Base(a.Executable())]; ok {
		return "from its CLI"
	}
	return "its own: arena does not know its CLI's vendor; family: sets one"
}
