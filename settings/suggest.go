package settings

import "strings"

// closest returns the candidate nearest to word when it is near enough to
// be a likely typo (max_round, max-rounds, timout), or "".
func closest(word string, candidates []string) string {
	best, bestDist := "", 3 // farther than 2 edits is a different word
	for _, c := range candidates {
		d := editDistance(strings.ToLower(word), strings.ToLower(c))
		if d < bestDist || (d == bestDist && c < best) {
			best, bestDist = c, d
		}
	}
	if bestDist >= len(word) { // "ab" is 2 edits from anything short
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance, on bytes: keys are ASCII.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
