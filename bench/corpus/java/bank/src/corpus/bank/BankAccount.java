package corpus.bank;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A bank account in cents with an overdraft limit and a ledger of transactions. */
public class BankAccount {

    private final String owner;
    private final long overdraftLimit;
    private long balance;
    private final List<Transaction> ledger = new ArrayList<>();

    public BankAccount(String owner, long overdraftLimit) {
        if (owner == null || owner.isBlank()) {
            throw new IllegalArgumentException("owner required");
        }
        if (overdraftLimit < 0) {
            throw new IllegalArgumentException("negative overdraft limit");
        }
        this.owner = owner;
        this.overdraftLimit = overdraftLimit;
    }

    public String owner() {
        return owner;
    }

    public long balance() {
        return balance;
    }

    public void deposit(long cents) {
        if (cents <= 0) {
            throw new IllegalArgumentException("deposit must be positive");
        }
        balance += cents;
        ledger.add(new Transaction("deposit", cents, balance));
    }

    /** Withdraws unless that would take the balance below -overdraftLimit. */
    public void withdraw(long cents) {
        if (cents <= 0) {
            throw new IllegalArgumentException("withdrawal must be positive");
        }
        if (!canWithdraw(cents)) {
            throw new IllegalStateException("insufficient funds");
        }
        balance -= cents;
        ledger.add(new Transaction("withdraw", -cents, balance));
    }

    public boolean canWithdraw(long cents) {
        return cents > 0 && balance - cents >= -overdraftLimit;
    }

    public void transferTo(BankAccount other, long cents) {
        if (other == this) {
            throw new IllegalArgumentException("transfer to self");
        }
        withdraw(cents);
        other.deposit(cents);
    }

    public List<Transaction> ledger() {
        return Collections.unmodifiableList(ledger);
    }

    /** Sum of deposits (credit entries) in the ledger. */
    public long totalCredits() {
        long sum = 0;
        for (Transaction t : ledger) {
            if (t.isCredit()) {
                sum += t.amount();
            }
        }
        return sum;
    }

    /** Lowest balance reached after any transaction, 0 for an empty ledger. */
    public long lowestBalance() {
        long low = 0;
        for (int i = 0; i < ledger.size(); i++) {
            long b = ledger.get(i).balanceAfter();
            if (b < low) {
                low = b;
            }
        }
        return low;
    }

    /** Adds monthly interest in basis points on a positive balance, rounding down. */
    public long applyInterest(int basisPoints) {
        if (basisPoints < 0 || basisPoints > 10000) {
            throw new IllegalArgumentException("basis points out of range");
        }
        if (balance <= 0) {
            return 0;
        }
        long interest = balance * basisPoints / 10000;
        if (interest > 0) {
            deposit(interest);
        }
        return interest;
    }
}
