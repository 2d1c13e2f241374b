/* Pilgrim pragmas that are unknown, malformed or misplaced: each gets a
   warning at its place (pragmas_malformed.test), and the file compiles. */
#pragma pilgrim phase("file scope")

int main(void) {
#pragma pilgrim
#pragma pilgrim stage("x")
#pragma pilgrim phase
#pragma pilgrim phase(x)
#pragma pilgrim phase("x"
#pragma pilgrim phase(L"wide")
#pragma pilgrim phase("x") extra
#pragma pilgrim trace
#pragma pilgrim trace sideways
#pragma pilgrim trace off now
#pragma pilgrim 42
  _Pragma("pilgrim phase(\"ok\")");
  return 0;
}
