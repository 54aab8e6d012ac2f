/// Builds introspection XML (specification, "Introspection Data Format") from the
/// registered interfaces, plus the standard interfaces every object answers.
enum Introspection {
    static let docType = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        """

    /// The standard interfaces, written as GDBus and libdbus document them.
    static let standard = """
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect">
              <arg name="xml_data" type="s" direction="out"/>
            </method>
          </interface>
          <interface name="org.freedesktop.DBus.Peer">
            <method name="Ping"/>
            <method name="GetMachineId">
              <arg name="machine_uuid" type="s" direction="out"/>
            </method>
          </interface>
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="property_name" type="s" direction="in"/>
              <arg name="value" type="v" direction="out"/>
            </method>
            <method name="GetAll">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="props" type="a{sv}" direction="out"/>
            </method>
            <method name="Set">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="property_name" type="s" direction="in"/>
              <arg name="value" type="v" direction="in"/>
            </method>
            <signal name="PropertiesChanged">
              <arg name="interface_name" type="s"/>
              <arg name="changed_properties" type="a{sv}"/>
              <arg name="invalidated_properties" type="as"/>
            </signal>
          </interface>

        """

    static func xml(for object: ExportedObject?, children: [String]) -> String {
        var out = docType + "\n<node>\n"
        if let object {
            out += standard
            for interface in object.interfaces { out += xml(interface) }
        }
        for child in children { out += "  <node name=\"\(escape(child))\"/>\n" }
        return out + "</node>\n"
    }

    private static func xml(_ interface: DBusInterface) -> String {
        var out = "  <interface name=\"\(interface.name)\">\n"
        out += doc(interface.doc, indent: "    ")
        for method in interface.methods {
            out += "    <method name=\"\(method.name)\">\n"
            out += args(method.inSignature, names: method.inNames, direction: "in")
            out += args(method.outSignature, names: method.outNames, direction: "out")
            out += doc(method.doc, indent: "      ")
            out += "    </method>\n"
        }
        for signal in interface.signals {
            out += "    <signal name=\"\(signal.name)\">\n"
            out += args(signal.signature, names: signal.argumentNames, direction: nil)
            out += doc(signal.doc, indent: "      ")
            out += "    </signal>\n"
        }
        for property in interface.properties {
            let attributes = "name=\"\(property.name)\" type=\"\(escape(property.signature.rawValue))\" access=\"\(property.access.rawValue)\""
            var body = doc(property.doc, indent: "      ")
            if property.constant {
                body += "      <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"const\"/>\n"
            } else if !property.emitsChanged {
                // Specification, "org.freedesktop.DBus.Properties": tells clients not to wait
                // for PropertiesChanged for this property.
                body += "      <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"false\"/>\n"
            }
            out += body.isEmpty
                ? "    <property \(attributes)/>\n"
                : "    <property \(attributes)>\n\(body)    </property>\n"
        }
        return out + "  </interface>\n"
    }

    private static func args(_ signature: DBusSignature, names: [String], direction: String?) -> String {
        signature.completeTypes.enumerated().map { index, type in
            let name = index < names.count ? " name=\"\(escape(names[index]))\"" : ""
            let dir = direction.map { " direction=\"\($0)\"" } ?? ""
            return "      <arg\(name) type=\"\(escape(type))\"\(dir)/>\n"
        }.joined()
    }

    /// `org.gtk.GDBus.DocString` is the annotation gdbus-codegen reads for docs (gdbus-codegen(1),
    /// "Supported D-Bus Annotations"); there is no org.freedesktop one.
    private static func doc(_ text: String?, indent: String) -> String {
        guard let text else { return "" }
        return "\(indent)<annotation name=\"org.gtk.GDBus.DocString\" value=\"\(escape(text))\"/>\n"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
