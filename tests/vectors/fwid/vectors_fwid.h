/* tests/vectors/fwid/vectors_fwid.h - written by make_fwid_vectors.py (hashlib); do not edit */
#define FWID_V_MEMORY   "954b8cb7dd466e2f3a3e26f1a06f475279619f4295a930c60768f6199a8c2e82"  /* sha256 of the whole simulated memory */
#define FWID_V_ABC      "20b01015bf2eb5c42d958a9bda94e54c545650f3ac86e49feaff28ef8767d08d"  /* volumes A, B, C */
#define FWID_V_A        "ea5c6c40175967db7fcc5fc4da41af6e39b96239cf7d0576732798f000a11ad9"  /* A alone */
#define FWID_V_B_BYTE   "1ff28246b96b47464decb4ce2e60a3db7ffbce8ed051927552c1bfcd78b59b90"  /* A, B with byte 0x100 ^ 0x01, C */
#define FWID_V_C_LAST   "bb32ffa247ea621b8ef008b76433bc1792858a6ae940993ea2ed20d046f4180a"  /* A, B, C with its last byte ^ 0x80 */
#define FWID_V_LANES_B  "9e1b0095040aebfa5d5318e32ca44c5e5d369b2d50423af638ebeb227267eb83"  /* lanes(B) in hex */
