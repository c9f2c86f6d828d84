package io.jobguard.internal.redis;

import io.jobguard.internal.RateLimitedLog;
import io.jobguard.store.LeaseStoreException;

import java.util.function.Supplier;

/**
 * Runs one Redis call of a lease store and turns any failure into a {@link LeaseStoreException} that names what the
 * store tried. The exception carries Redis' own words (NOPERM, WRONGTYPE), since the client's message is often only
 * "Error in execution".
 */
public final class StoreCalls {

    private StoreCalls() {
    }

    /**
     * The failure of {@code what}, as a store exception: {@code cause} itself when it is one already.
     *
     * @param what  what the store tried, e.g. {@code "read the run record of job 'x'"}
     * @param cause the failure
     * @return the exception to throw
     */
    public static LeaseStoreException failed(String what, Throwable cause) {
        return cause instanceof LeaseStoreException e ? e
                : new LeaseStoreException("job-guard could not " + what + ": " + RateLimitedLog.causeChain(cause), cause);
    }

    /**
     * Runs {@code op}; a runtime failure is rethrown as {@link #failed(String, Throwable)}.
     *
     * @param op   the call
     * @param what what the call does, for the message
     * @param <T>  the call's result
     * @return what {@code op} returned
     */
    public static <T> T call(Supplier<T> op, String what) {
        try {
            return op.get();
        } catch (RuntimeException e) {
            throw failed(what, e);
        }
    }
}
