package compare

import (
	"slices"
	"testing"
)

func TestCheckOptionsWantsTwoToFourDistinctOnes(t *testing.T) {
	t.Parallel()
	got, err := CheckOptions([]string{" Kafka ", "Postgres \x1b[31mLISTEN"})
	if err != nil || !slices.Equal(got, []string{"Kafka", "Postgres LISTEN"}) {
		t.Fatalf("%q %v", got, err)
	}
	for want, options := range map[string][]string{
		"--option is empty":               {"a", " "},
		`--option "kafka" is given twice`: {"Kafka", "kafka"},
		"compare needs at least two options, got 1: give each with --option": {"a"},
		"compare takes at most four options, got 5":                          {"a", "b", "c", "d", "e"},
	} {
		if _, err := CheckOptions(options); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %s", options, err, want)
		}
	}
}
