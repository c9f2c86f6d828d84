package io.jobguard.spring.it

import io.jobguard.ClusterSingleton
import kotlinx.coroutines.delay
import org.springframework.scheduling.annotation.Scheduled

/**
 * A guarded Kotlin suspend job for [AsyncJobsIT]: its coroutine suspends (no thread held) until the
 * test counts down [AsyncApps.release], so the method "returns" to Spring long before its work ends.
 * `open`, because job-guard refuses final guarded methods (a subclass proxy could not guard them).
 */
open class SuspendJob {

    @Scheduled(cron = "* * * * * *")
    @ClusterSingleton(name = "suspend", lease = "2s")
    open suspend fun run() {
        AsyncApps.started.countDown()
        while (AsyncApps.release.count > 0) {
            delay(50)
        }
        AsyncApps.completed.incrementAndGet()
    }
}

/** A guarded suspend job whose coroutine fails after suspending. */
open class FailingSuspendJob {

    @Scheduled(cron = "0 0 0 1 1 *")
    @ClusterSingleton(name = "suspend-failing", lease = "2s")
    open suspend fun run(): String {
        AsyncApps.started.countDown()
        delay(100)
        throw IllegalStateException("suspended work failed")
    }
}

/** Calls the failing job from blocking code, as an application would; returns what it threw. */
fun callBlocking(job: FailingSuspendJob): Throwable? =
    runCatching { kotlinx.coroutines.runBlocking { job.run() } }.exceptionOrNull()
