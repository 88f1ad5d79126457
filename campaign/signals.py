"""What campaign asks of the floors above it without importing them: the table core connects a receiver
to each (combat/receivers.py, when its app is ready), so a saga's housekeeping knows what the table
keeps, a new name or a new player reaches the open encounters and the saga's history records a password
link made, and the saga's records keep each change of its troupe."""

from django.dispatch import Signal

# Sent with saga=: a receiver answers True when it keeps something of the saga's history.
saga_history = Signal()
# Sent with character=: a receiver answers True when something it keeps names the character.
character_history = Signal()
# Sent with character=, was= (the old name) and user=, inside the rename's transaction.
character_renamed = Signal()
# Sent with character= (its new player already saved as its owner), was= (the one before, or None) and
# user=, inside the hand-over's transaction.
character_handed_over = Signal()
# Sent with saga=, storyguide= and player=, inside the transaction that made a password link.
reset_link_made = Signal()
# Sent with saga=, change= (MADE, REMOVED or LEAD), member= (the storyguide made, made a player again, or the
# new lead), was= (for LEAD: the lead until now) and by=, inside the change's transaction; for REMOVED the
# receiver passes the seats the member held to the lead (`by`).
troupe_changed = Signal()
MADE, REMOVED, LEAD = "made", "removed", "lead"
