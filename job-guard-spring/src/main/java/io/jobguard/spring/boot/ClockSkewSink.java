package io.jobguard.spring.boot;

import java.time.Duration;

/** Receives each clock-skew measurement (the Micrometer gauge is one). */
@FunctionalInterface
interface ClockSkewSink {

    void record(Duration skew);
}
