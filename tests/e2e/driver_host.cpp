// Plain C++ host file linked with MUSA objects (driver test).
int hostHelper(int x) { return x * 2; }
