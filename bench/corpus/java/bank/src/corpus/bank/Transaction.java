package corpus.bank;

/** One ledger entry: a signed amount in cents and the balance after it. */
public final class Transaction {

    private final String kind;
    private final long amount;
    private final long balanceAfter;

    public Transaction(String kind, long amount, long balanceAfter) {
        this.kind = kind;
        this.amount = amount;
        this.balanceAfter = balanceAfter;
    }

    public String kind() {
        return kind;
    }

    public long amount() {
        return amount;
    }

    public long balanceAfter() {
        return balanceAfter;
    }

    public boolean isCredit() {
        return amount > 0;
    }

    @Override
    public String toString() {
        return kind + " " + amount + " -> " + balanceAfter;
    }
}
