package io.jobguard.store;

/** The lease store could not be reached or answered something it should not have. */
public class LeaseStoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed
     * @param cause   the underlying failure
     */
    public LeaseStoreException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Creates the exception.
     *
     * @param message what failed
     */
    public LeaseStoreException(String message) {
        super(message);
    }
}
