# install.mk — `make install` and `make uninstall` (PREFIX, DESTDIR and the *DIR variables as
# GNU's conventions name them), the pkg-config file, the man page and the install test.
PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR    ?= $(PREFIX)/share/smalti
MANDIR     ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
PKGCONFIGDIR  ?= $(LIBDIR)/pkgconfig

# The CLI looks for the bundled models in DATADIR (after $SMALTI_DATADIR and ../share/smalti
# beside itself): compiled into datadir.o, which is rebuilt when DATADIR changes.
$(BUILD)/obj/cli/common/datadir.o: CPPFLAGS_ALL += -DSMALTI_DATADIR='"$(DATADIR)"'
$(BUILD)/obj/cli/common/datadir.o: $(BUILD)/gen/datadir.txt
$(BUILD)/gen/datadir.txt: FORCE
	@mkdir -p $(dir $@); echo '$(DATADIR)' | cmp -s - $@ || echo '$(DATADIR)' > $@
FORCE:

# smalti.pc: paths under PREFIX are written as ${prefix}/..., so that
# `pkg-config --define-variable=prefix=DIR` finds a copy installed elsewhere (a DESTDIR).
PC_PATH = $(patsubst $(PREFIX)%,$${prefix}%,$(1))
$(BUILD)/smalti.pc: install.mk include/smalti.h $(BUILD)/gen/datadir.txt
	@mkdir -p $(dir $@)
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(call PC_PATH,$(LIBDIR))' 'includedir=$(call PC_PATH,$(INCLUDEDIR))' \
	  'datadir=$(call PC_PATH,$(DATADIR))' '' 'Name: smalti' \
	  'Description: a fast interpreter of MarkovJunior procedural generators' 'Version: $(SO_VERSION)' \
	  'Requires.private: libxml-2.0 zlib' 'Libs: -L$${libdir} -lsmalti' 'Libs.private: -lgif -lm' \
	  'Cflags: -I$${includedir}' > $@

# smalti(1), from the binary's own help texts.
$(BUILD)/smalti.1: smalti tools/manpage.sh $(BUILD)/gen/datadir.txt
	sh tools/manpage.sh ./smalti '$(DATADIR)' > $@.tmp && mv $@.tmp $@

man: $(BUILD)/smalti.1

INSTALL_ENV = DESTDIR='$(DESTDIR)' BINDIR='$(BINDIR)' LIBDIR='$(LIBDIR)' INCLUDEDIR='$(INCLUDEDIR)' DATADIR='$(DATADIR)' \
	MANDIR='$(MANDIR)' COMPLETIONDIR='$(COMPLETIONDIR)' PKGCONFIGDIR='$(PKGCONFIGDIR)' BUILD='$(BUILD)' \
	SO_VERSION='$(SO_VERSION)' SO_MAJOR='$(SO_MAJOR)'
install: all $(BUILD)/smalti.pc $(BUILD)/smalti.1
	$(INSTALL_ENV) sh tools/install.sh install
uninstall:
	$(INSTALL_ENV) sh tools/install.sh uninstall

# The install test: a DESTDIR install, the api.md program built with pkg-config against it, the
# installed CLI on an installed model, the man page, the completion, the Python binding's
# library search, then uninstall leaves nothing.
install-test: all | $(BUILD)/.test-deps
	sh tests/install_test.sh

# The Python binding's tests (bindings/python), on build/libsmalti.so.
# Also under Debian's own python3 with its python3-numpy (TEST_DEPS), where the NumPy view must work.
python-test: all | $(BUILD)/.test-deps
	SMALTI_LIB=$(BUILD)/libsmalti.so SMALTI=./smalti python3 -m unittest discover -s tests/python -v
	SMALTI_LIB=$(BUILD)/libsmalti.so SMALTI=./smalti SMALTI_REQUIRE_NUMPY=1 /usr/bin/python3 -m unittest discover -s tests/python

.PHONY: install uninstall man install-test python-test FORCE
