package source

// BlobReads returns how many times t read a blob's contents.
func BlobReads(t *TreeFS) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.reads
}
