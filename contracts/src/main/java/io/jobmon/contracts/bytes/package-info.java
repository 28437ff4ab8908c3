/**
 * The byte-level reads and writes of jobmon's binary formats — unsigned LEB128 varints, zigzag varints, 8-byte fixed
 * fields in either byte order — one implementation for the binary metric-samples records (ADR 0007), the metric
 * chunks (ADR 0003) and the log chunk bodies (ADR 0020). Each format keeps its own layout; these classes only read
 * and write its fields (ADR 0012).
 */
package io.jobmon.contracts.bytes;
