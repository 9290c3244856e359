package challengers

// Word-at-a-time helpers of jsonscan.go's string scanner. They were shared
// with the text cleaner until it moved to engine/trust; they go with
// jsonscan.go when encoding/json replaces it (issue 20).

const (
	lsbs  = 0x0101010101010101
	msbs  = 0x8080808080808080
	low7s = 0x7f7f7f7f7f7f7f7f
)

// ltMask has the top bit of each byte of x set that is below n (n <=
// 0x80), and of no other.
func ltMask(x uint64, n byte) uint64 {
	return ^((x&low7s + lsbs*uint64(0x80-n)) | x) & msbs
}

// eqMask has the top bit of each byte of x set that equals c, and of no
// other.
func eqMask(x uint64, c byte) uint64 {
	y := x ^ lsbs*uint64(c)
	return ^((y&low7s + low7s) | y) & msbs
}
