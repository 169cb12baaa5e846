//! State machines: parameters, states and transitions with compiled conditions, driving sprite players.
