// Package sketch owns the compact signatures documents are compared by:
// MinHash signatures made by one-permutation hashing with densification,
// their LSH band keys, the choice of bands and rows for a threshold, and
// Bottomer, the consistent sample of a set's smallest hashes that bounds
// what a long document keeps for verification. A set given in parts (a
// long document's shingles, made a block at a time) is signed by
// MinHash.Start, Add and Finish and sampled by a BottomStream.
//
// Every value here is seeded explicitly and computed with fixed integer
// mixing, so signatures are stable across runs, machines and versions and
// can be persisted.
package sketch
