/** JMH benchmarks of batch locks against their peers; see run-batch-bench.sh. */
package io.jobguard.benchmarks;
