package corpus.bank;

import static org.junit.Assert.*;

import java.util.List;
import org.junit.Test;

public class BankAccountTest {

    @Test
    public void depositAndWithdraw() {
        BankAccount a = new BankAccount("ann", 0);
        a.deposit(1000);
        a.withdraw(300);
        assertEquals(700, a.balance());
        a.withdraw(700);
        assertEquals(0, a.balance());
        assertEquals("ann", a.owner());
    }

    @Test
    public void overdraftBoundary() {
        BankAccount a = new BankAccount("bob", 500);
        a.deposit(100);
        assertTrue(a.canWithdraw(600));
        assertFalse(a.canWithdraw(601));
        assertFalse(a.canWithdraw(0));
        a.withdraw(600);
        assertEquals(-500, a.balance());
        assertEquals(-500, a.lowestBalance());
    }

    @Test(expected = IllegalStateException.class)
    public void withdrawBeyondLimitFails() {
        BankAccount a = new BankAccount("cy", 10);
        a.deposit(5);
        a.withdraw(16);
    }

    @Test(expected = IllegalArgumentException.class)
    public void zeroDepositRejected() {
        new BankAccount("dee", 0).deposit(0);
    }

    @Test(expected = IllegalArgumentException.class)
    public void negativeWithdrawRejected() {
        BankAccount a = new BankAccount("dee", 100);
        a.withdraw(-1);
    }

    @Test
    public void constructorValidation() {
        try {
            new BankAccount(" ", 0);
            fail("blank owner accepted");
        } catch (IllegalArgumentException expected) {
            assertEquals("owner required", expected.getMessage());
        }
        try {
            new BankAccount("eve", -1);
            fail("negative limit accepted");
        } catch (IllegalArgumentException expected) {
            assertEquals("negative overdraft limit", expected.getMessage());
        }
        assertEquals(0, new BankAccount("eve", 0).balance());
    }

    @Test
    public void transferAndLedger() {
        BankAccount a = new BankAccount("fay", 0);
        BankAccount b = new BankAccount("gus", 0);
        a.deposit(900);
        a.transferTo(b, 400);
        assertEquals(500, a.balance());
        assertEquals(400, b.balance());
        List<Transaction> log = a.ledger();
        assertEquals(2, log.size());
        assertEquals("deposit 900 -> 900", log.get(0).toString());
        assertEquals("withdraw -400 -> 500", log.get(1).toString());
        assertEquals(900, a.totalCredits());
        assertEquals(0, a.lowestBalance());
        assertEquals(400, b.totalCredits());
    }

    @Test
    public void transactionAccessors() {
        Transaction t = new Transaction("fee", 0, 5);
        assertFalse(t.isCredit());
        assertTrue(new Transaction("deposit", 1, 1).isCredit());
        assertFalse(new Transaction("withdraw", -1, 0).isCredit());
        assertEquals("fee", t.kind());
        assertEquals(0, t.amount());
        assertEquals(5, t.balanceAfter());
    }

    @Test(expected = IllegalArgumentException.class)
    public void transferToSelfRejected() {
        BankAccount a = new BankAccount("hal", 0);
        a.deposit(10);
        a.transferTo(a, 5);
    }

    @Test
    public void interest() {
        BankAccount a = new BankAccount("ida", 100);
        a.deposit(10000);
        assertEquals(150, a.applyInterest(150));
        assertEquals(10150, a.balance());
        assertEquals(0, a.applyInterest(0));
        assertEquals(10150, a.applyInterest(10000));
        assertEquals(20300, a.balance());
        BankAccount b = new BankAccount("jo", 100);
        b.deposit(99);
        assertEquals(0, b.applyInterest(100));
        assertEquals(1, b.ledger().size());
        b.withdraw(150);
        assertEquals(0, b.applyInterest(5000));
        assertEquals(-51, b.balance());
        try {
            new BankAccount("kim", 0).applyInterest(10001);
            fail();
        } catch (IllegalArgumentException expected) {
            assertEquals("basis points out of range", expected.getMessage());
        }
        try {
            new BankAccount("kim", 0).applyInterest(-1);
            fail();
        } catch (IllegalArgumentException expected) {
            assertEquals("basis points out of range", expected.getMessage());
        }
    }
}
