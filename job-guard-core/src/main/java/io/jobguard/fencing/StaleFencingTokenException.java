package io.jobguard.fencing;

import io.jobguard.LeaseLostException;

/**
 * A fenced write was refused: the resource has already seen a higher fencing token, so a newer run of the
 * job (on this node or another) has written to it and this writer is stale. The write did not happen; in a
 * database, roll back the transaction (an exception leaving a {@code @Transactional} method does that).
 */
public class StaleFencingTokenException extends LeaseLostException {

    private static final long serialVersionUID = 1L;

    private final String resource;
    private final long presentedToken;
    private final long currentToken;

    /**
     * Creates the exception.
     *
     * @param resource       the fenced resource
     * @param presentedToken the token of the refused writer
     * @param currentToken   the highest token the resource has seen
     */
    public StaleFencingTokenException(String resource, long presentedToken, long currentToken) {
        super(null, null, presentedToken, "fenced write to '" + resource + "' refused: fencing token " + presentedToken
                + " is lower than " + currentToken + ", the token of a newer run; this run's lease is gone");
        this.resource = resource;
        this.presentedToken = presentedToken;
        this.currentToken = currentToken;
    }

    /**
     * The fenced resource.
     *
     * @return the resource name
     */
    public String resource() {
        return resource;
    }

    /**
     * The refused writer's token.
     *
     * @return the token presented
     */
    public long presentedToken() {
        return presentedToken;
    }

    /**
     * The highest token the resource has seen.
     *
     * @return the current token
     */
    public long currentToken() {
        return currentToken;
    }
}
