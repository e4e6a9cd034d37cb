// Package sketch owns the compact signatures documents are compared by:
// MinHash signatures made by one-permutation hashing with densification,
// their LSH band keys, and the choice of bands and rows for a threshold.
//
// Every value here is seeded explicitly and computed with fixed integer
// mixing, so signatures are stable across runs, machines and versions and
// can be persisted.
package sketch
