//! Claims, sensors and verifiers: five honest verdicts from canonical events.
